import { decodeDataUrl } from './models.command.js';
import { formatTable } from './user-client.js';

describe(decodeDataUrl.name, () => {
  it('decodes base64 and percent-encoded data: URLs with their media type', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(decodeDataUrl(`data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`)).toEqual({ mediaType: 'image/svg+xml', bytes: Buffer.from(svg) });
    expect(decodeDataUrl(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)).toEqual({ mediaType: 'image/svg+xml', bytes: Buffer.from(svg) });
    expect(decodeDataUrl('data:;base64,AAE=').mediaType).toBe('text/plain');
    expect(() => decodeDataUrl('https://example.org/plot.png')).toThrow("the plot is not a data: URL (starts 'https://example.org/plot.png')");
  });
});

describe(formatTable.name, () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      formatTable([
        ['ID', 'RUNS', 'INPUT'],
        ['coulomb-blockade-peak-detector-v2', '12', '(128,)'],
        ['x', '3', ''],
      ]),
    ).toBe(
      ['ID                                 RUNS  INPUT', 'coulomb-blockade-peak-detector-v2  12    (128,)', 'x                                  3     '].join(
        '\n',
      ),
    );
  });
});
