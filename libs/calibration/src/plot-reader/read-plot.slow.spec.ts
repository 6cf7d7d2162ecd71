import { readFileSync } from 'node:fs';
import { generateCalibrationTrace } from '#qdc/device-physics';
import { resolve } from 'node:path';
import { assessCalibration, keyParameterOf } from '../assess-calibration.js';
import type { CalibrationFamily } from '../calibration.types.js';
import { decodeImage } from './decode-image.js';
import { parseNumber } from './glyph-reader.js';
import { decodePng } from './png.decode.js';
import { ImageDecodeError } from './raster-image.js';
import { normaliseOcrText, readPlot } from './read-plot.js';

interface FixtureEntry {
  file: string;
  family: CalibrationFamily;
  truth: { name: string; value: number };
  xRange: [number, number];
  style: string;
  seed: number;
  relativeNoise: number;
}

// Rendered by matplotlib from libs/device-physics traces: scripts/calibration/render-plot-fixtures.ts.
const FIXTURES = resolve('libs/calibration/src/plot-reader/fixtures');
const manifest = JSON.parse(readFileSync(resolve(FIXTURES, 'manifest.json'), 'utf8')) as FixtureEntry[];
const read = (file: string) => readPlot(decodeImage(new Uint8Array(readFileSync(resolve(FIXTURES, file)))));

describe(readPlot.name, () => {
  it.each(manifest.map((f) => [f.file, f] as const))('%s: family from the plot; key parameter as fitted on the data, and near the truth', (_file, fixture) => {
    const sut = read(fixture.file);
    expect(sut.notes).toEqual([]);
    const result = assessCalibration(sut.series, { title: sut.title, xLabel: sut.xLabel, yLabel: sut.yLabel });
    expect(result.assessment.experiment).toBe(fixture.family);
    expect(result.assessment.status).toBe('success');
    const key = result.assessment.fit!.parameters[keyParameterOf(fixture.family)]!;
    const scale = fixture.family === 'drag' ? (fixture.xRange[1] - fixture.xRange[0]) / 2 : Math.abs(fixture.truth.value);
    // The reader reproduces the data: the same fit on the generated arrays agrees within 3 %.
    const trace = generateCalibrationTrace(fixture.family, fixture.seed, {
      relativeNoise: fixture.relativeNoise,
      ...(fixture.style === 'drag-with-fits' ? { points: 60 } : {}),
    });
    const onData = assessCalibration(trace.series, { experiment: fixture.family }).assessment.fit!.parameters[keyParameterOf(fixture.family)]!.value;
    expect(Math.abs(key.value - onData)).toBeLessThanOrEqual(0.03 * scale);
    // And the truth: within 5 %, or within 3 stated standard errors where the noise allows no better.
    expect(Math.abs(key.value - fixture.truth.value)).toBeLessThanOrEqual(Math.max(0.05 * scale, 3 * key.stderr));
  });

  it('reads the DRAG plot (two ⟨Z⟩ series with fitted lines and a legend): two marker series and the crossing', () => {
    const fixture = manifest.find((f) => f.file === 'qcaleval-drag-like.png')!;
    const sut = read(fixture.file);
    expect(sut.series).toHaveLength(2);
    expect(sut.overlays.length).toBeGreaterThanOrEqual(1);
    expect(sut.title).toBe('DRAG');
    const result = assessCalibration(sut.series, { title: sut.title, xLabel: sut.xLabel });
    expect(result.assessment).toMatchObject({ experiment: 'drag', status: 'success', series: 2 });
    expect(result.assessment.fit!.parameters.crossing!.value).toBeCloseTo(fixture.truth.value, 0);
  });

  it('reads titles and axis labels of the default style', () => {
    const sut = read('t2-echo-default.png');
    expect(sut.title).toBe('T2 Hahn echo');
    expect(sut.xLabel).toBe('Delay (µs)');
  });

  it('reports what it could not read instead of guessing (a frame without ticks or labels)', () => {
    const width = 200;
    const height = 150;
    const rgb = new Uint8Array(width * height * 3).fill(255);
    const ink = (x: number, y: number) => rgb.fill(0, 3 * (y * width + x), 3 * (y * width + x) + 3);
    for (let x = 30; x < 190; x++) for (const y of [20, 120]) ink(x, y);
    for (let y = 20; y <= 120; y++) for (const x of [30, 189]) ink(x, y);
    const sut = readPlot({ width, height, rgb });
    expect(sut.frame).toEqual({ x0: 31, y0: 21, x1: 189, y1: 120 });
    expect(sut.series).toEqual([]);
    expect(sut.notes).toEqual(['x axis: 0 ticks, 0 readable labels — not enough to calibrate', 'y axis: 0 ticks, 0 readable labels — not enough to calibrate']);
  });

  it('finds no frame in a blank image', () => {
    const blank = { width: 64, height: 48, rgb: new Uint8Array(64 * 48 * 3).fill(255) };
    expect(readPlot(blank).notes).toEqual(['no plot frame (axis lines) found']);
  });
});

describe(decodeImage.name, () => {
  it('decodes PNG and JPEG to the same picture (within JPEG loss)', () => {
    const png = decodeImage(new Uint8Array(readFileSync(resolve(FIXTURES, 'ramsey-default.png'))));
    const jpg = decodeImage(new Uint8Array(readFileSync(resolve(FIXTURES, 'ramsey-default.jpg'))));
    expect([jpg.width, jpg.height]).toEqual([png.width, png.height]);
    let diff = 0;
    for (let i = 0; i < png.rgb.length; i++) diff += Math.abs(png.rgb[i]! - jpg.rgb[i]!);
    expect(diff / png.rgb.length).toBeLessThan(4);
  });

  it('rejects bytes that are neither PNG nor JPEG, saying what came', () => {
    expect(() => decodeImage(new Uint8Array([1, 2, 3, 4]))).toThrow(new ImageDecodeError('expected a PNG or JPEG image; got 4 bytes starting 01020304'));
    expect(() => decodePng(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toThrow('PNG has no IHDR chunk');
  });
});

describe(parseNumber.name, () => {
  it('reads tick labels with minus signs, decimals and exponents', () => {
    expect(parseNumber('-0.25')).toBe(-0.25);
    expect(parseNumber('1e-6')).toBe(1e-6);
    expect(parseNumber('2.5×10-3')).toBe(2.5e-3);
    expect(parseNumber('a.b')).toBeNull();
  });

  it('normalises look-alike glyphs inside words only', () => {
    expect(normaliseOcrText('Excited state p0pu|ati0n T1 0.5')).toBe('Excited state population T1 0.5');
    expect(normaliseOcrText('Rab] time, Coefhcient')).toBe('rabi time, coefficient');
  });
});
