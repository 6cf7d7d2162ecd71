import { ArrayDecodeError, TORCH_ERROR } from './array-decode-error.js';

/**
 * A deliberately tiny pickle interpreter: it understands only the opcodes torch.save emits for a
 * tensor and never imports or calls anything. GLOBAL, REDUCE and persistent ids are handed to
 * hooks, which build plain data or refuse.
 */
export type PickleValue = null | boolean | number | string | PickleTuple | PickleList | PickleDict | PickleObject;

export interface PickleTuple {
  kind: 'tuple';
  items: PickleValue[];
}

export interface PickleList {
  kind: 'list';
  items: PickleValue[];
}

export interface PickleDict {
  kind: 'dict';
  /** 'dict', or the class a hook built it as (e.g. 'OrderedDict'). */
  className: string;
  entries: Array<[PickleValue, PickleValue]>;
}

/** Anything a hook returns that is not plain data: a resolved global, a storage, a tensor. */
export interface PickleObject {
  kind: 'object';
  tag: string;
  payload: unknown;
}

export interface PickleHooks {
  /** GLOBAL module.name → a value; must throw for anything not allowed. */
  global(module: string, name: string): PickleValue;
  persistentLoad(pid: PickleValue): PickleValue;
  reduce(callable: PickleValue, args: PickleValue[]): PickleValue;
}

export function pickleError(reason: string): never {
  throw new ArrayDecodeError(`pickled object other than one tensor: ${reason}`, TORCH_ERROR);
}

function malformedPickle(what: string): never {
  throw new ArrayDecodeError(`expected a well-formed pickle in data.pkl; got ${what}`, TORCH_ERROR);
}

function truncated(): never {
  throw new ArrayDecodeError('expected a complete pickle in data.pkl; got one that ends early', TORCH_ERROR);
}

const OPCODE_NAMES: Record<number, string> = {
  0x63: 'GLOBAL',
  0x69: 'INST',
  0x6f: 'OBJ',
  0x81: 'NEWOBJ',
  0x92: 'NEWOBJ_EX',
  0x52: 'REDUCE',
  0x62: 'BUILD',
  0x50: 'PERSID',
  0x53: 'STRING',
  0x54: 'BINSTRING',
  0x55: 'SHORT_BINSTRING',
  0x42: 'BINBYTES',
  0x43: 'SHORT_BINBYTES',
  0x49: 'INT',
  0x4c: 'LONG',
  0x46: 'FLOAT',
  0x56: 'UNICODE',
  0x8f: 'EMPTY_SET',
  0x90: 'ADDITEMS',
  0x91: 'FROZENSET',
  0x82: 'EXT1',
  0x83: 'EXT2',
  0x84: 'EXT4',
  0x96: 'BYTEARRAY8',
  0x97: 'NEXT_BUFFER',
  0x98: 'READONLY_BUFFER',
};

const MARK = Symbol('mark');
type StackItem = PickleValue | typeof MARK;

class PickleReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get done(): boolean {
    return this.pos >= this.bytes.length;
  }

  take(n: number): Uint8Array {
    if (n > this.bytes.length - this.pos) truncated();
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  u8(): number {
    return this.take(1)[0];
  }

  u16(): number {
    const p = this.take(2).byteOffset - this.bytes.byteOffset;
    return this.view.getUint16(p, true);
  }

  u32(): number {
    const p = this.take(4).byteOffset - this.bytes.byteOffset;
    return this.view.getUint32(p, true);
  }

  i32(): number {
    const p = this.take(4).byteOffset - this.bytes.byteOffset;
    return this.view.getInt32(p, true);
  }

  u64(): number {
    const low = this.u32();
    const high = this.u32();
    // Lengths past 2^53 can never fit in the remaining bytes; report them as truncation.
    return high >= 0x200000 ? Number.MAX_SAFE_INTEGER : high * 4294967296 + low;
  }

  f64be(): number {
    const p = this.take(8).byteOffset - this.bytes.byteOffset;
    return this.view.getFloat64(p, false);
  }

  /** A newline-terminated ASCII line (GLOBAL operands). */
  line(): string {
    const end = this.bytes.indexOf(0x0a, this.pos);
    if (end < 0) truncated();
    const text = String.fromCharCode(...this.bytes.subarray(this.pos, Math.min(end, this.pos + 256)));
    if (end - this.pos > 256) pickleError(`global name ${JSON.stringify(text)}... is too long`);
    this.pos = end + 1;
    return text;
  }
}

const utf8 = new TextDecoder();

/** LONG1: little-endian two's complement of at most 255 bytes; only safe integers are accepted. */
function decodeLong(bytes: Uint8Array): number {
  let value = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[i]);
  if (bytes.length > 0 && bytes[bytes.length - 1] & 0x80) value -= 1n << BigInt(8 * bytes.length);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) malformedPickle('an integer too large to be a size or offset');
  return n;
}

/** Runs the pickle in `bytes` and returns the object it builds. */
export function runPickle(bytes: Uint8Array, hooks: PickleHooks): PickleValue {
  const reader = new PickleReader(bytes);
  const stack: StackItem[] = [];
  const memo = new Map<number, PickleValue>();

  const pop = (): PickleValue => {
    if (stack.length === 0) malformedPickle('a stack underflow');
    const item = stack.pop()!;
    if (item === MARK) malformedPickle('an unexpected MARK');
    return item;
  };
  const top = (): PickleValue => {
    const item = stack[stack.length - 1];
    if (item === undefined || item === MARK) malformedPickle('a stack underflow');
    return item;
  };
  const popMark = (): PickleValue[] => {
    const at = stack.lastIndexOf(MARK);
    if (at < 0) malformedPickle('a missing MARK');
    const items = stack.splice(at) as PickleValue[];
    items.shift();
    return items;
  };
  const memoGet = (key: number): PickleValue => {
    const value = memo.get(key);
    if (value === undefined) malformedPickle(`a reference to missing memo entry ${key}`);
    return value;
  };
  const tuple = (items: PickleValue[]): PickleTuple => ({ kind: 'tuple', items });
  const text = (length: number): string => utf8.decode(reader.take(length));
  const setItems = (target: PickleValue, items: PickleValue[]): void => {
    if (typeof target !== 'object' || target === null || target.kind !== 'dict') malformedPickle('SETITEM on something other than a dict');
    if (items.length % 2 !== 0) malformedPickle('SETITEMS with an odd item count');
    for (let i = 0; i < items.length; i += 2) target.entries.push([items[i], items[i + 1]]);
  };
  const append = (target: PickleValue, items: PickleValue[]): void => {
    if (typeof target !== 'object' || target === null || target.kind !== 'list') malformedPickle('APPEND on something other than a list');
    for (const item of items) target.items.push(item);
  };

  while (!reader.done) {
    const op = reader.u8();
    switch (op) {
      case 0x80: // PROTO
        if (reader.u8() > 5) malformedPickle('an unknown pickle protocol');
        break;
      case 0x95: // FRAME: only a read-ahead hint
        reader.take(8);
        break;
      case 0x63: // GLOBAL
        stack.push(hooks.global(reader.line(), reader.line()));
        break;
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') malformedPickle('STACK_GLOBAL with non-string operands');
        stack.push(hooks.global(module, name));
        break;
      }
      case 0x71: // BINPUT
        memo.set(reader.u8(), top());
        break;
      case 0x72: // LONG_BINPUT
        memo.set(reader.u32(), top());
        break;
      case 0x94: // MEMOIZE
        memo.set(memo.size, top());
        break;
      case 0x68: // BINGET
        stack.push(memoGet(reader.u8()));
        break;
      case 0x6a: // LONG_BINGET
        stack.push(memoGet(reader.u32()));
        break;
      case 0x28: // MARK
        stack.push(MARK);
        break;
      case 0x30: // POP
        pop();
        break;
      case 0x74: // TUPLE
        stack.push(tuple(popMark()));
        break;
      case 0x29: // EMPTY_TUPLE
        stack.push(tuple([]));
        break;
      case 0x85: // TUPLE1
        stack.push(tuple([pop()]));
        break;
      case 0x86: {
        // TUPLE2
        const b = pop();
        stack.push(tuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        stack.push(tuple([pop(), b, c]));
        break;
      }
      case 0x4a: // BININT
        stack.push(reader.i32());
        break;
      case 0x4b: // BININT1
        stack.push(reader.u8());
        break;
      case 0x4d: // BININT2
        stack.push(reader.u16());
        break;
      case 0x8a: // LONG1
        stack.push(decodeLong(reader.take(reader.u8())));
        break;
      case 0x47: // BINFLOAT
        stack.push(reader.f64be());
        break;
      case 0x58: // BINUNICODE
        stack.push(text(reader.u32()));
        break;
      case 0x8c: // SHORT_BINUNICODE
        stack.push(text(reader.u8()));
        break;
      case 0x8d: // BINUNICODE8
        stack.push(text(reader.u64()));
        break;
      case 0x88: // NEWTRUE
        stack.push(true);
        break;
      case 0x89: // NEWFALSE
        stack.push(false);
        break;
      case 0x4e: // NONE
        stack.push(null);
        break;
      case 0x51: // BINPERSID
        stack.push(hooks.persistentLoad(pop()));
        break;
      case 0x52: {
        // REDUCE
        const args = pop();
        const callable = pop();
        if (typeof args !== 'object' || args === null || args.kind !== 'tuple') malformedPickle('REDUCE without an argument tuple');
        stack.push(hooks.reduce(callable, args.items));
        break;
      }
      case 0x7d: // EMPTY_DICT
        stack.push({ kind: 'dict', className: 'dict', entries: [] });
        break;
      case 0x5d: // EMPTY_LIST
        stack.push({ kind: 'list', items: [] });
        break;
      case 0x73: {
        // SETITEM
        const value = pop();
        const key = pop();
        setItems(top(), [key, value]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        setItems(top(), items);
        break;
      }
      case 0x61: {
        // APPEND
        const item = pop();
        append(top(), [item]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        append(top(), items);
        break;
      }
      case 0x62: {
        // BUILD: instance state, which torch only attaches to the (empty) hooks OrderedDict
        pop();
        const target = top();
        if (typeof target !== 'object' || target === null || target.kind !== 'dict' || target.className !== 'OrderedDict') {
          pickleError('BUILD (object state) on something other than an OrderedDict is not allowed');
        }
        break;
      }
      case 0x2e: // STOP
        return pop();
      default:
        return pickleError(`pickle opcode ${OPCODE_NAMES[op] ?? `0x${op.toString(16).padStart(2, '0')}`} is not allowed`);
    }
  }
  return truncated();
}
