import { manifest, readFixture } from '../test/fixture-manifest.js';
import { ArrayDecodeError, decodeArray, DTYPES, elementCount, type NdArray } from './index.js';

/** mulberry32: a tiny seeded PRNG, so every run fuzzes the same inputs and failures reproduce. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(0x5eed);
const int = (n: number) => Math.floor(random() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)];

function isWellFormed(a: NdArray): boolean {
  return (
    Array.isArray(a.shape) &&
    a.shape.every((d) => Number.isSafeInteger(d) && d > 0) &&
    a.data instanceof Float64Array &&
    a.data.length === elementCount(a.shape) &&
    DTYPES.includes(a.dtype)
  );
}

/** Decodes, and describes any outcome other than a well-formed array or an ArrayDecodeError. */
function misbehaviour(bytes: Uint8Array): string | undefined {
  try {
    const result = decodeArray(bytes);
    return isWellFormed(result) ? undefined : `malformed result shape=${JSON.stringify(result.shape)}`;
  } catch (error) {
    if (error instanceof ArrayDecodeError && error.message.length > 0) return undefined;
    return `threw ${(error as Error)?.constructor?.name}: ${(error as Error)?.message}`;
  }
}

const fixtures = [...manifest.arrays, ...manifest.rejected].map((f) => readFixture(f.file));
const npyMagic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

function header(): string {
  const tokens = [
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    ',',
    ':',
    ' ',
    "'descr'",
    "'fortran_order'",
    "'shape'",
    "'<f8'",
    "'>i2'",
    "'|b1'",
    "'?'",
    "'|O'",
    'True',
    'False',
    'None',
    '0',
    '3',
    '-1',
    '99999999999',
    '2147483648',
    '1L',
    '"x"',
    "'",
    '\\',
    '\n',
    'é',
    '\0',
  ];
  if (random() < 0.5) {
    const dims = Array.from({ length: int(4) }, () => pick(['0', '1', '2', '3', '7', '65536', '-1', 'x']));
    return `{'descr': ${pick(["'<f8'", "'>f4'", "'|u1'", "'<f2'", "'|O'", "'<i8'", '1'])}, 'fortran_order': ${pick(['True', 'False', '1'])}, 'shape': (${dims.join(', ')}${dims.length === 1 ? ',' : ''}), }`;
  }
  return Array.from({ length: int(40) }, () => pick(tokens)).join('');
}

function npyWithHeader(text: string): Uint8Array {
  const h = new TextEncoder().encode(text);
  const version = pick([1, 2, 3]);
  const prefix = version === 1 ? 10 : 12;
  const body = int(64);
  const out = new Uint8Array(prefix + h.length + body);
  out.set([...npyMagic, version, 0]);
  out[8] = h.length & 0xff;
  out[9] = h.length >> 8;
  out.set(h, prefix);
  for (let i = prefix + h.length; i < out.length; i++) out[i] = int(256);
  return out;
}

describe('decodeArray fuzzing', () => {
  const failures: string[] = [];
  let runs = 0;
  const check = (label: string, bytes: Uint8Array) => {
    runs++;
    const problem = misbehaviour(bytes);
    if (problem && failures.length < 10) failures.push(`${label}: ${problem}`);
  };

  it('random bytes, some behind a valid magic', () => {
    for (let i = 0; i < 1000; i++) {
      const bytes = Uint8Array.from({ length: int(400) }, () => int(256));
      const prefix = pick([[], npyMagic, [...npyMagic, 1, 0], [0x50, 0x4b, 0x03, 0x04], [0x80, 0x02]]);
      bytes.set(prefix.slice(0, bytes.length));
      check(`random #${i}`, bytes);
    }
    expect(failures).toEqual([]);
  });

  it('every fixture truncated at random lengths', () => {
    fixtures.forEach((file, f) => {
      for (let i = 0; i < 25; i++) check(`fixture ${f} cut at ${i}`, file.subarray(0, int(file.length)));
    });
    expect(failures).toEqual([]);
  });

  it('every fixture with random byte corruptions', () => {
    fixtures.forEach((file, f) => {
      for (let i = 0; i < 25; i++) {
        const copy = file.slice();
        for (let n = i % 3 === 0 ? 1 + int(4) : 1; n > 0; n--) copy[int(copy.length)] = int(256);
        check(`fixture ${f} corrupted #${i}`, copy);
      }
    });
    expect(failures).toEqual([]);
  });

  it('random .npy header strings', () => {
    for (let i = 0; i < 1000; i++) check(`header #${i}`, npyWithHeader(header()));
    expect(failures).toEqual([]);
  });

  afterAll(() => {
    expect(runs).toBeGreaterThanOrEqual(3000);
  });
});
