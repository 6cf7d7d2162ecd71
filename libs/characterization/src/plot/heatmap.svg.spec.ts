import { unzlibSync } from 'fflate';
import { encodeRgbPng } from './png.js';
import { renderHeatmapSvgDocument } from './heatmap.svg.js';

describe('encodeRgbPng', () => {
  it('writes a PNG whose IDAT inflates to the filtered rows', () => {
    const rgb = new Uint8Array(3 * 4 * 2).map((_, i) => i);
    const png = encodeRgbPng(4, 2, rgb);
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([4, 2]);
    const idatLength = view.getUint32(33);
    expect(String.fromCharCode(...png.subarray(37, 41))).toBe('IDAT');
    const raw = unzlibSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe(2 * (1 + 12));
    expect(Array.from(raw.subarray(14, 26))).toEqual(Array.from(rgb.subarray(12, 24)));
  });

  it('rejects a buffer of the wrong size', () => {
    expect(() => encodeRgbPng(2, 2, new Uint8Array(5))).toThrow('expected 12 RGB bytes; got 5');
  });
});

describe('renderHeatmapSvgDocument', () => {
  it('draws overlays at pixel centres and escapes text', () => {
    const svg = renderHeatmapSvgDocument({
      title: 'a <b>',
      rows: 4,
      cols: 8,
      values: new Float64Array(32).map((_, i) => i),
      labels: new Int32Array(32).fill(1),
      segments: [{ x1: 0, y1: 0, x2: 7, y2: 3 }],
      points: [{ x: 1, y: 2, label: 'top' }],
      legend: '1 line',
      darkMode: false,
    });
    expect(svg).toContain('a &lt;b&gt;');
    expect(svg).toContain('data:image/png;base64,');
    // 8 columns over 560 px: 70 px per pixel, left margin 60 → centre of column 0 at 95.
    expect(svg).toContain('<line x1="95" y1="75" x2="585"');
    expect(svg).toContain('>top</text>');
  });
});
