import { jest } from '@jest/globals';
import { releaseJobMemory } from './release-memory.js';

describe(releaseJobMemory.name, () => {
  it('collects when a job left more than the threshold in array buffers, and frees them', () => {
    let buffer: Float64Array | undefined = new Float64Array(8 * 1024 * 1024).fill(1); // 64 MiB
    const held = process.memoryUsage().arrayBuffers;
    expect(held).toBeGreaterThanOrEqual(64 * 1024 * 1024);
    buffer = undefined;
    expect(buffer).toBeUndefined();
    expect(releaseJobMemory(32 * 1024 * 1024)).toBe(true);
    expect(process.memoryUsage().arrayBuffers).toBeLessThan(held - 60 * 1024 * 1024);
  });

  it('does nothing below the threshold', () => {
    const collect = jest.fn();
    expect(releaseJobMemory(Number.MAX_SAFE_INTEGER, collect)).toBe(false);
    expect(collect).not.toHaveBeenCalled();
  });
});
