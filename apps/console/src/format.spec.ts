import { formatBytes, formatCents, formatValue, outputSummary } from './format.js';

describe('format', () => {
  it('writes sizes, money and values', () => {
    expect(formatBytes(928)).toBe('928 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MiB');
    expect(formatCents(1234)).toBe('$12.34');
    expect(formatCents(0.25)).toBe('$0.0025');
    expect(formatCents(null)).toBe('—');
    expect(formatValue(0.1234567)).toBe('0.123457');
    expect(formatValue(2.5)).toBe('2.5');
    expect(formatValue([1, 2, 3], 2)).toBe('[1, 2, … (3 items)]');
    expect(formatValue([[1, 2]])).toBe('[[1,2]]');
    expect(formatValue({ centre: 17.024650022, width: 5, fit: { a: 1 } })).toBe('{centre: 17.0247, width: 5, fit: …}');
  });

  it('sums up an output without its plot', () => {
    expect(outputSummary({ plot: 'data:image/png;base64,AAAA', peak_indices: [3, 9], classification: true })).toBe(
      'peak_indices: [3, 9]; classification: true',
    );
    expect(outputSummary({ plot: 'x' })).toBe('—');
  });
});
