import { acceptsGzip } from './accept-encoding.js';

describe(acceptsGzip.name, () => {
  it.each([
    ['gzip, deflate', true], // httpx and requests
    ['gzip, deflate, br, zstd', true],
    ['br;q=1.0, gzip;q=0.8, *;q=0.1', true],
    ['x-gzip', true],
    ['*', true],
    ['deflate, br', false],
    ['identity', false],
    ['gzip;q=0', false],
    ['gzip;q=0, *', false],
    ['*;q=0', false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it('is false without the header', () => {
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
