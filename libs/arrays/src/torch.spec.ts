import { expectedValues, manifest, readFixture } from '../test/fixture-manifest.js';
import { buildZip, PickleWriter } from '../test/zip-builder.js';
import { ArrayDecodeError } from './array-decode-error.js';
import { decodeTorch } from './torch.decode.js';

const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);

function archive(pickle: Uint8Array, storage: Uint8Array = f32([0, 1, 2, 3, 4, 5]), extra: Array<[string, string | Uint8Array]> = []) {
  return buildZip([['archive/data.pkl', pickle], ['archive/data/0', storage], ['archive/version', '3\n'], ...extra]);
}

function decodeError(bytes: Uint8Array): ArrayDecodeError {
  try {
    decodeTorch(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ArrayDecodeError);
    expect((error as ArrayDecodeError).type).toMatch(/^value_error\./);
    return error as ArrayDecodeError;
  }
  throw new Error('expected decodeTorch to throw');
}

describe(decodeTorch.name, () => {
  describe('fixtures written by torch.save', () => {
    const fixtures = manifest.arrays.filter((f) => f.format === 'pt');

    it.each(fixtures.map((f) => [f.file, f] as const))('%s decodes to the manifest values', (_, fixture) => {
      const sut = decodeTorch(readFixture(fixture.file));
      expect(sut.shape).toEqual(fixture.shape);
      expect(sut.dtype).toBe(fixture.dtype);
      expect(Array.from(sut.data)).toEqual(expectedValues(fixture));
    });

    it('decodes from a Node Buffer slice at an odd offset', () => {
      const file = readFixture('pt-big-endian.pt');
      const shifted = Buffer.concat([Buffer.alloc(5), file]).subarray(5);
      expect(decodeTorch(shifted)).toEqual(decodeTorch(file));
    });
  });

  describe('hand-built archives', () => {
    it('honours offset and arbitrary strides', () => {
      const pickle = new PickleWriter().tensor('FloatStorage', '0', 6, 1, [2, 2], [1, 2]).build();
      expect(decodeTorch(archive(pickle))).toEqual({ shape: [2, 2], dtype: 'f4', data: Float64Array.from([1, 3, 2, 4]) });
    });

    it('reads a zip64 archive', () => {
      const pickle = new PickleWriter().tensor('FloatStorage', '0', 6, 0, [3, 2], [2, 1]).build();
      const bytes = buildZip(
        [
          ['archive/data.pkl', pickle],
          ['archive/data/0', f32([0, 1, 2, 3, 4, 5])],
        ],
        { zip64: true },
      );
      expect(decodeTorch(bytes).data).toEqual(Float64Array.from([0, 1, 2, 3, 4, 5]));
    });

    it('accepts any archive folder name, as torch.save uses the file stem in newer versions', () => {
      const pickle = new PickleWriter().tensor('FloatStorage', '0', 6, 0, [6], [1]).build();
      const bytes = buildZip([
        ['my_tensor/data.pkl', pickle],
        ['my_tensor/data/0', f32([0, 1, 2, 3, 4, 5])],
      ]);
      expect(decodeTorch(bytes).shape).toEqual([6]);
    });

    it('accepts STACK_GLOBAL and SHORT_BINUNICODE from protocol 4 pickles', () => {
      const w = new PickleWriter();
      const short = (s: string) => [0x8c, s.length, ...new TextEncoder().encode(s)];
      w.op(...short('torch._utils'), ...short('_rebuild_tensor'), 0x93, 0x94, 0x28);
      w.op(0x28, ...short('storage'), ...short('torch'), ...short('DoubleStorage'), 0x93, ...short('0'), ...short('cpu'), 0x4b, 1, 0x74, 0x51);
      w.op(0x4b, 0, 0x29, 0x29, 0x74, 0x52);
      const bytes = archive(w.build(), new Uint8Array(Float64Array.from([42]).buffer));
      expect(decodeTorch(bytes)).toEqual({ shape: [], dtype: 'f8', data: Float64Array.from([42]) });
    });

    it.each([
      [
        'a tuple of tensors',
        new PickleWriter().tensor('FloatStorage', '0', 6, 0, [6], [1]).op(0x85).build(),
        'expected a file holding one tensor; got a tuple',
      ],
      ['a bare number', new PickleWriter().int(3).build(), 'expected a file holding one tensor; got a number'],
      ['builtins.eval', new PickleWriter().global('builtins', 'eval').str('1').op(0x85, 0x52).build(), 'global builtins.eval is not allowed'],
      ['torch.load itself', new PickleWriter().global('torch', 'load').build(), 'global torch.load is not allowed'],
      ['an INST opcode', new PickleWriter().op(0x69, ...new TextEncoder().encode('os\nsystem\n')).build(), 'pickle opcode INST is not allowed'],
      ['BUILD on a tensor', new PickleWriter().tensor('FloatStorage', '0', 6, 0, [6], [1]).op(0x7d, 0x62).build(), 'BUILD (object state)'],
      ['a persistent id that is not a storage', new PickleWriter().str('x').op(0x51).build(), 'a persistent id other than a tensor storage'],
      ['a view past the storage end', new PickleWriter().tensor('FloatStorage', '0', 6, 2, [5], [1]).build(), 'to lie inside its storage of 6 elements'],
      ['a storage larger than its record', new PickleWriter().tensor('FloatStorage', '0', 60, 0, [6], [1]).build(), 'expected 240 bytes of tensor storage'],
      ['a missing storage record', new PickleWriter().tensor('FloatStorage', '7', 6, 0, [6], [1]).build(), 'archive/data/7'],
      ['size and stride of different rank', new PickleWriter().tensor('FloatStorage', '0', 6, 0, [2, 3], [1]).build(), 'expected one stride per dimension'],
      ['a negative size', new PickleWriter().tensor('FloatStorage', '0', 6, 0, [-1], [1]).build(), 'expected the size to be a non-negative integer'],
      ['a quantized storage', new PickleWriter().tensor('QInt8Storage', '0', 6, 0, [6], [1]).build(), 'got torch.QInt8Storage'],
      ['a huge expanded view', new PickleWriter().tensor('FloatStorage', '0', 6, 0, [100000, 100000], [0, 0]).build(), 'expected at most 2147483648 elements'],
      ['a pickle without STOP', new PickleWriter().tensor('FloatStorage', '0', 6, 0, [6], [1]).build().subarray(0, -1), 'ends early'],
      ['a dangling memo reference', new PickleWriter().op(0x68, 9).build(), 'missing memo entry 9'],
    ])('rejects %s', (_, pickle, message) => {
      expect(decodeError(archive(pickle)).message).toContain(message);
    });

    it('rejects a byteorder record other than little/big', () => {
      const pickle = new PickleWriter().tensor('FloatStorage', '0', 6, 0, [6], [1]).build();
      expect(decodeError(archive(pickle, undefined, [['archive/byteorder', 'middle']])).message).toContain(
        `expected 'little' or 'big' in the archive's byteorder record; got "middle"`,
      );
    });

    it('rejects a zip without data.pkl, listing what it holds', () => {
      expect(decodeError(buildZip([['notes.txt', 'hi']])).message).toBe('expected a PyTorch .pt zip archive with <name>/data.pkl; got a zip holding notes.txt');
    });

    it('recognises a TorchScript archive', () => {
      const bytes = buildZip([
        ['model/data.pkl.bak', ''],
        ['model/code/__torch__.py', ''],
        ['model/constants.pkl', ''],
      ]);
      expect(decodeError(bytes).message).toContain('got a TorchScript archive');
    });

    it('rejects a data.pkl whose central directory declares ~4 GiB, before inflating it', () => {
      const bytes = buildZip([['archive/data.pkl', new PickleWriter().build()]]);
      const view = new DataView(bytes.buffer);
      const central = bytes.length - 22 - (46 + 'archive/data.pkl'.length);
      view.setUint16(central + 10, 8, true); // claim deflate
      view.setUint32(central + 24, 0xfffffff0, true); // uncompressed size ~4 GiB
      expect(decodeError(bytes).message).toBe(
        "expected 'archive/data.pkl' in the .pt archive to hold at most 1048576 bytes; its central directory declares 4294967280 bytes",
      );
    });
  });
});
