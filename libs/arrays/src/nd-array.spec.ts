import { elementCount, findNonFinite } from './nd-array.js';

describe(elementCount.name, () => {
  it('multiplies the dimensions; a 0-d shape holds one element', () => {
    expect(elementCount([3, 4, 5])).toBe(60);
    expect(elementCount([])).toBe(1);
    expect(elementCount([7, 0])).toBe(0);
  });
});

describe(findNonFinite.name, () => {
  const array = (values: number[]) => ({ shape: [values.length], data: Float64Array.from(values), dtype: 'f8' as const });

  it('returns -1 when every value is finite, including extremes', () => {
    expect(findNonFinite(array([0, -0, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE]))).toBe(-1);
  });

  it('returns the first flat index of NaN or ±Infinity', () => {
    expect(findNonFinite(array([1, 2, NaN, Infinity]))).toBe(2);
    expect(findNonFinite(array([1, -Infinity, NaN]))).toBe(1);
    expect(findNonFinite(array([Infinity]))).toBe(0);
  });
});
