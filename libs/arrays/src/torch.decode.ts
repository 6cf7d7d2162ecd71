import { ArrayDecodeError, LIMIT_ERROR, TORCH_ERROR } from './array-decode-error.js';
import { MAX_ELEMENTS, MAX_PICKLE_BYTES, effectiveLimits, limitOwner, type DecodeLimits } from './decode-limits.js';
import { decodeElements, itemSize, type ElementKind } from './element-decoding.js';
import { assertNonEmpty, elementCount, formatShape, type NdArray } from './nd-array.js';
import { pickleError, runPickle, type PickleObject, type PickleValue } from './pickle-machine.js';
import { gatherStrided, isRowMajor } from './strided-gather.js';
import { readZipDirectory, readZipEntry, type InflateBudget, type ZipEntry } from './zip-archive.js';

/** Legacy typed storage classes torch.save names in persistent ids, by element kind. */
const STORAGE_TYPES = new Map<string, ElementKind>(
  Object.entries({
    DoubleStorage: 'f8',
    FloatStorage: 'f4',
    HalfStorage: 'f2',
    BFloat16Storage: 'bf16',
    LongStorage: 'i8',
    IntStorage: 'i4',
    ShortStorage: 'i2',
    CharStorage: 'i1',
    ByteStorage: 'u1',
    BoolStorage: 'b1',
  }) as Array<[string, ElementKind]>,
);

/** `torch.<dtype>` globals; newer torch names them for dtypes without a legacy storage class (_rebuild_tensor_v3). */
const TORCH_DTYPES = new Map<string, ElementKind>(
  Object.entries({
    float64: 'f8',
    double: 'f8',
    float32: 'f4',
    float: 'f4',
    float16: 'f2',
    half: 'f2',
    bfloat16: 'bf16',
    int64: 'i8',
    long: 'i8',
    int32: 'i4',
    int: 'i4',
    int16: 'i2',
    short: 'i2',
    int8: 'i1',
    uint8: 'u1',
    uint16: 'u2',
    uint32: 'u4',
    uint64: 'u8',
    bool: 'b1',
  }) as Array<[string, ElementKind]>,
);

const REBUILD_FUNCTIONS = new Set(['_rebuild_tensor', '_rebuild_tensor_v2', '_rebuild_tensor_v3', '_rebuild_parameter']);

interface StorageRef {
  /** null for an UntypedStorage (bytes), whose element type comes from the rebuild call. */
  kind: ElementKind | null;
  key: string;
  /** Elements for typed storages, bytes for untyped ones. */
  numel: number;
}

interface TensorRef {
  storage: StorageRef;
  kind: ElementKind;
  offset: number;
  shape: number[];
  strides: number[];
}

function fail(message: string): never {
  throw new ArrayDecodeError(message, TORCH_ERROR);
}

function object(tag: string, payload: unknown): PickleObject {
  return { kind: 'object', tag, payload };
}

function isObject(value: PickleValue, tag: string): value is PickleObject {
  return typeof value === 'object' && value !== null && value.kind === 'object' && value.tag === tag;
}

function describe(value: PickleValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return 'a bool';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'a string';
  if (value.kind === 'object') return value.tag === 'tensor' ? 'a tensor' : value.tag === 'storage' ? 'a bare storage' : `a ${value.tag}`;
  return `a ${value.kind}`;
}

function resolveGlobal(module: string, name: string): PickleValue {
  if (module === 'torch._utils' && REBUILD_FUNCTIONS.has(name)) return object('function', name);
  if (module === 'collections' && name === 'OrderedDict') return object('function', 'OrderedDict');
  if (module === 'torch' && STORAGE_TYPES.has(name)) return object('storage type', STORAGE_TYPES.get(name));
  if ((module === 'torch' || module === 'torch.storage') && name === 'UntypedStorage') return object('storage type', null);
  if (module === 'torch' && TORCH_DTYPES.has(name)) return object('dtype', TORCH_DTYPES.get(name));
  if (module === 'torch' && (name.endsWith('Storage') || /^(complex|c(float|double|half)$|float8|qu?int)/.test(name))) {
    fail(`expected a tensor of a real dtype (float16/32/64, bfloat16, int8-64, uint8-64, bool); got torch.${name}`);
  }
  return pickleError(`global ${module}.${name} is not allowed`);
}

function asInt(value: PickleValue, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(`expected ${what} to be a non-negative integer in the tensor record; got ${describe(value)}`);
  }
  return value;
}

function asIntTuple(value: PickleValue, what: string): number[] {
  if (typeof value !== 'object' || value === null || value.kind !== 'tuple') {
    fail(`expected ${what} to be a tuple of integers in the tensor record; got ${describe(value)}`);
  }
  return value.items.map((item) => asInt(item, what));
}

function persistentLoad(pid: PickleValue): PickleValue {
  const items = typeof pid === 'object' && pid !== null && pid.kind === 'tuple' ? pid.items : [];
  const [tag, type, key, , numel] = items;
  if (items.length !== 5 || tag !== 'storage' || !isObject(type, 'storage type') || typeof key !== 'string') {
    return pickleError('a persistent id other than a tensor storage is not allowed');
  }
  const storage: StorageRef = { kind: type.payload as ElementKind | null, key, numel: asInt(numel, 'the storage size') };
  return object('storage', storage);
}

function rebuildTensor(name: string, args: PickleValue[]): PickleValue {
  if (name === '_rebuild_parameter') {
    // nn.Parameter(data, requires_grad, hooks): the tensor is its data.
    if (!isObject(args[0], 'tensor')) fail('expected a Parameter wrapping a tensor; got something else');
    return args[0];
  }
  const expected = name === '_rebuild_tensor' ? [4, 4] : name === '_rebuild_tensor_v2' ? [6, 7] : [7, 8];
  if (args.length < expected[0] || args.length > expected[1]) {
    fail(`expected ${expected[0]} arguments to torch._utils.${name}; got ${args.length}`);
  }
  const [storageValue, offset, size, stride] = args;
  if (!isObject(storageValue, 'storage')) fail(`expected a storage as the tensor's first field; got ${describe(storageValue)}`);
  const storage = storageValue.payload as StorageRef;
  let kind = storage.kind;
  if (name === '_rebuild_tensor_v3') {
    if (!isObject(args[6], 'dtype')) fail(`expected a torch dtype in torch._utils._rebuild_tensor_v3; got ${describe(args[6])}`);
    kind = args[6].payload as ElementKind;
  }
  if (kind === null) fail('expected a typed storage for the tensor; got an UntypedStorage without a dtype');
  const shape = asIntTuple(size, 'the size');
  const strides = asIntTuple(stride, 'the stride');
  if (strides.length !== shape.length) fail(`expected one stride per dimension; got size ${formatShape(shape)} and stride ${formatShape(strides)}`);
  const tensor: TensorRef = { storage, kind, offset: asInt(offset, 'the storage offset'), shape, strides };
  return object('tensor', tensor);
}

function reduce(callable: PickleValue, args: PickleValue[]): PickleValue {
  if (!isObject(callable, 'function')) return pickleError(`calling ${describe(callable)} is not allowed`);
  if (callable.payload === 'OrderedDict') {
    if (args.length !== 0) pickleError('an OrderedDict built from arguments is not allowed');
    return { kind: 'dict', className: 'OrderedDict', entries: [] };
  }
  return rebuildTensor(callable.payload as string, args);
}

/** The archive's records live under one top-level folder, e.g. `archive/data.pkl`; find it. */
function locateRecords(entries: ZipEntry[]): { prefix: string; byName: Map<string, ZipEntry> } {
  const byName = new Map(entries.map((e) => [e.name, e]));
  const pickles = entries.filter((e) => /^[^/]+\/data\.pkl$/.test(e.name));
  if (pickles.length === 1) return { prefix: pickles[0].name.slice(0, -'data.pkl'.length), byName };
  if (pickles.length > 1) fail(`expected one <name>/data.pkl in the .pt archive; got ${pickles.length}`);
  if (entries.some((e) => /(^|\/)constants\.pkl$/.test(e.name) || /(^|\/)code\//.test(e.name))) {
    fail('expected a tensor saved with torch.save; got a TorchScript archive (torch.jit.save)');
  }
  const listed = entries
    .slice(0, 5)
    .map((e) => e.name)
    .join(', ');
  return fail(`expected a PyTorch .pt zip archive with <name>/data.pkl; got a zip holding ${listed || 'nothing'}`);
}

function readByteOrder(bytes: Uint8Array, entry: ZipEntry | undefined, budget: InflateBudget): boolean {
  if (!entry) return true; // archives from torch < 2.1 have no byteorder record and are little endian
  const text = String.fromCharCode(...readZipEntry(bytes, entry, budget, 16));
  if (text === 'little') return true;
  if (text === 'big') return false;
  return fail(`expected 'little' or 'big' in the archive's byteorder record; got ${JSON.stringify(text)}`);
}

/**
 * Checks what the tensor record declares against the limits, before its storage is inflated: the view's element
 * count, and the storage's bytes (declared by the record and by the zip directory) against the inflation budget.
 */
function checkDeclaredSizes(tensor: TensorRef, entry: ZipEntry, limits: DecodeLimits, budget: InflateBudget): void {
  const { shape, storage, kind } = tensor;
  if (shape.some((d) => d > MAX_ELEMENTS) || elementCount(shape) > MAX_ELEMENTS) {
    fail(`expected at most ${MAX_ELEMENTS} elements; got size ${formatShape(shape)}`);
  }
  assertNonEmpty(shape);
  const count = elementCount(shape);
  if (count > limits.maxElements) {
    throw new ArrayDecodeError(
      `expected at most ${limits.maxElements} elements${limitOwner(limits)}; the tensor record declares size ${formatShape(shape)} (${count} elements)`,
      LIMIT_ERROR,
    );
  }
  const storageBytes = storage.kind === null ? storage.numel : storage.numel * itemSize(kind);
  if (storageBytes > budget.remaining) {
    throw new ArrayDecodeError(
      `expected the .pt archive to expand to at most ${budget.limit} bytes${budget.owner} (zip bomb guard); its tensor storage declares ${storageBytes} bytes (${entry.uncompressedSize} in the zip directory)`,
      LIMIT_ERROR,
    );
  }
}

/** Copies the tensor's view out of its storage, in C order (sizes already checked by checkDeclaredSizes). */
function materialize(tensor: TensorRef, storageBytes: Uint8Array, littleEndian: boolean): NdArray {
  const { kind, offset, shape, strides, storage } = tensor;
  const size = itemSize(kind);
  const count = elementCount(shape);

  const storageElements = storage.kind === null ? Math.floor(storage.numel / size) : storage.numel;
  if (storageBytes.length < storageElements * size) {
    fail(`expected ${storageElements * size} bytes of tensor storage '${storage.key}'; got ${storageBytes.length}`);
  }
  let last = offset;
  for (let d = 0; d < shape.length; d++) last += (shape[d] - 1) * strides[d];
  if (!(last < storageElements)) {
    fail(
      `expected the tensor view (offset ${offset}, size ${formatShape(shape)}, stride ${formatShape(strides)}) to lie inside its storage of ${storageElements} elements`,
    );
  }

  // Convert only the span the view touches, then gather it into C order.
  const span = decodeElements(storageBytes.subarray(offset * size, (last + 1) * size), kind, littleEndian);
  const data = span.length === count && isRowMajor(shape, strides) ? span : gatherStrided(span, 0, shape, strides);
  return { shape, data, dtype: kind === 'bf16' ? 'f4' : kind };
}

/**
 * Decodes a PyTorch `torch.save` zip archive holding exactly one tensor. Sizes are checked against `limits` from
 * what the archive declares (central directory, tensor record) before the storage is inflated, and inflation
 * stops at the declared size.
 */
export function decodeTorch(bytes: Uint8Array, limits?: DecodeLimits): NdArray {
  const bounds = effectiveLimits(limits);
  const { prefix, byName } = locateRecords(readZipDirectory(bytes));
  const budget: InflateBudget = { remaining: bounds.maxInflatedBytes, limit: bounds.maxInflatedBytes, owner: limitOwner(bounds) };
  const pickle = readZipEntry(bytes, byName.get(`${prefix}data.pkl`)!, budget, MAX_PICKLE_BYTES);
  const littleEndian = readByteOrder(bytes, byName.get(`${prefix}byteorder`), budget);

  const result = runPickle(pickle, { global: resolveGlobal, persistentLoad, reduce });
  if (!isObject(result, 'tensor')) fail(`expected a file holding one tensor; got ${describe(result)}`);
  const tensor = result.payload as TensorRef;
  const entry = byName.get(`${prefix}data/${tensor.storage.key}`);
  if (!entry) fail(`expected the archive to hold the tensor's storage ${prefix}data/${tensor.storage.key}; it does not`);
  checkDeclaredSizes(tensor, entry, bounds, budget);
  return materialize(tensor, readZipEntry(bytes, entry, budget), littleEndian);
}
