/**
 * Builds small STORED zip archives for tests (torch-style archives with hand-written pickles).
 * `zip64: true` writes the zip64 end records and saturated central-directory fields.
 */
export function buildZip(entries: Array<[string, Uint8Array | string]>, options: { zip64?: boolean } = {}): Uint8Array {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = typeof content === 'string' ? encoder.encode(content) : content;
    const nameBytes = encoder.encode(name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint32(18, data.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    chunks.push(new Uint8Array(local.buffer), nameBytes, data);

    const extra = options.zip64 ? new DataView(new ArrayBuffer(28)) : undefined;
    if (extra) {
      extra.setUint16(0, 0x0001, true);
      extra.setUint16(2, 24, true);
      extra.setBigUint64(4, BigInt(data.length), true);
      extra.setBigUint64(12, BigInt(data.length), true);
      extra.setBigUint64(20, BigInt(offset), true);
    }
    const record = new DataView(new ArrayBuffer(46));
    const saturated = options.zip64 ? 0xffffffff : undefined;
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(6, 20, true);
    record.setUint32(20, saturated ?? data.length, true);
    record.setUint32(24, saturated ?? data.length, true);
    record.setUint16(28, nameBytes.length, true);
    record.setUint16(30, extra ? extra.byteLength : 0, true);
    record.setUint32(42, saturated ?? offset, true);
    central.push(new Uint8Array(record.buffer), nameBytes);
    if (extra) central.push(new Uint8Array(extra.buffer));
    offset += 30 + nameBytes.length + data.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const tail: Uint8Array[] = [];
  if (options.zip64) {
    const record = new DataView(new ArrayBuffer(56));
    record.setUint32(0, 0x06064b50, true);
    record.setBigUint64(4, 44n, true);
    record.setBigUint64(24, BigInt(entries.length), true);
    record.setBigUint64(32, BigInt(entries.length), true);
    record.setBigUint64(40, BigInt(directorySize), true);
    record.setBigUint64(48, BigInt(offset), true);
    const locator = new DataView(new ArrayBuffer(20));
    locator.setUint32(0, 0x07064b50, true);
    locator.setBigUint64(8, BigInt(offset + directorySize), true);
    locator.setUint32(16, 1, true);
    tail.push(new Uint8Array(record.buffer), new Uint8Array(locator.buffer));
  }
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
  end.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
  end.setUint32(12, options.zip64 ? 0xffffffff : directorySize, true);
  end.setUint32(16, options.zip64 ? 0xffffffff : offset, true);
  tail.push(new Uint8Array(end.buffer));

  const parts = [...chunks, ...central, ...tail];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Writes pickle opcodes by name, enough to hand-build the tensor records torch.save emits. */
export class PickleWriter {
  private readonly bytes: number[] = [0x80, 0x02];

  op(...codes: number[]): this {
    this.bytes.push(...codes);
    return this;
  }

  global(module: string, name: string): this {
    return this.op(0x63, ...new TextEncoder().encode(`${module}\n${name}\n`));
  }

  str(text: string): this {
    const data = new TextEncoder().encode(text);
    return this.op(0x58, data.length & 0xff, (data.length >> 8) & 0xff, 0, 0, ...data);
  }

  int(n: number): this {
    const view = new DataView(new ArrayBuffer(4));
    view.setInt32(0, n, true);
    return this.op(0x4a, ...new Uint8Array(view.buffer));
  }

  ints(values: number[]): this {
    this.op(0x28);
    for (const v of values) this.int(v);
    return this.op(0x74);
  }

  /** `_rebuild_tensor_v2(storage(kind, key, numel), offset, size, stride, False, OrderedDict())`. */
  tensor(storage: string, key: string, numel: number, offset: number, size: number[], stride: number[]): this {
    this.global('torch._utils', '_rebuild_tensor_v2').op(0x28);
    this.op(0x28).str('storage').global('torch', storage).str(key).str('cpu').int(numel).op(0x74, 0x51);
    this.int(offset).ints(size).ints(stride).op(0x89);
    return this.global('collections', 'OrderedDict').op(0x29, 0x52, 0x74, 0x52);
  }

  build(): Uint8Array {
    return Uint8Array.from([...this.bytes, 0x2e]);
  }
}
