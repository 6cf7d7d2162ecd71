import { zipSync } from 'fflate';
import { encodeNpy } from '#qdc/arrays';
import { inputOfDownload } from './result-input.js';

describe('inputOfDownload', () => {
  it('reads the input array out of a result download (result.json + the input file)', () => {
    const npy = encodeNpy({ shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
    const zip = zipSync({ 'result.json': new TextEncoder().encode('{"id":"x"}'), 'frame-7.npy': npy });
    const array = inputOfDownload(zip);
    expect(array.shape).toEqual([2, 3]);
    expect(Array.from(array.data)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('says so when the zip holds only result.json', () => {
    expect(() => inputOfDownload(zipSync({ 'result.json': new Uint8Array([123, 125]) }))).toThrow('no input file');
  });
});
