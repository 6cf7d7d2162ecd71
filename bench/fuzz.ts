/**
 * `npm run bench:fuzz`: hostile input against every route of a local stack (fuzz-stack.ts: every service as its own
 * process against the local Postgres, Redis and NATS, in a fresh database and namespace). Sends ≥ 5 000
 * requests — uploads (truncated, garbage, huge-header .npy, zip bombs, pickles with forbidden globals, wrong dtypes),
 * JSON bodies (deep nesting, huge numbers, wrong types, giant strings), circuits (deep parentheses, huge registers,
 * unicode, Python tricks), headers (long/garbage X-Request-Id, bad auth) and query strings (negative/huge
 * skip/limit, bad dates) — and prints status counts per route group, every 5xx, crashed processes and peak RSS per
 * process, then the slowest requests sent again one at a time (hostile input that costs seconds of CPU to refuse is a
 * denial of service even when the answer is a 4xx). Target: 0 × 5xx, 0 crashed processes. Not part of `npm test`.
 *
 * Options (env): FUZZ_SEED (default 18), FUZZ_MIN_REQUESTS (default 5000), FUZZ_CONCURRENCY (default 24),
 * FUZZ_MAX_SECONDS (default 1800: no new request is sent after it; the tables cover what was sent), FUZZ_SHOW_BODY=1 (the start
 * of each slowest request's text body).
 */
import { connect } from 'node:net';
import { encodeNpy } from '#qdc/arrays';
import { npzZipBomb, torchZipBomb } from '../libs/arrays/test/zip-bomb.js';
import { buildZip, PickleWriter } from '../libs/arrays/test/zip-builder.js';
import { multipart, residentBytes } from '../test/medium/system.harness.js';
import { startStack, type FuzzStack } from './fuzz-stack.js';

const SEED = Number(process.env.FUZZ_SEED ?? 18);
const MIN_REQUESTS = Number(process.env.FUZZ_MIN_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 24);
const MAX_SECONDS = Number(process.env.FUZZ_MAX_SECONDS ?? 1800);
/** A request that takes longer is counted as a client timeout (a stall), not as an answer. */
const CLIENT_TIMEOUT_MS = 60_000;

/** mulberry32: a small seeded generator, so a run can be repeated exactly. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** What fetch accepts as a body. */
type FuzzBody = NonNullable<RequestInit['body']>;

type Auth = 'control' | 'coda' | 'admin' | 'both' | 'none';

interface FuzzCase {
  group: string;
  method: string;
  path: string;
  auth?: Auth;
  headers?: Record<string, string>;
  body?: () => FuzzBody;
  /** A raw HTTP/1.1 request (bytes fetch refuses to send). */
  raw?: string;
  /** Server-sent events: only the status and the first bytes are read. */
  stream?: boolean;
}

interface Answer {
  group: string;
  label: string;
  status: number | 'timeout' | 'reset';
  excerpt: string;
  /** Wall time to the answer (ms); under load it includes queueing behind other requests. */
  ms?: number;
}

// ---------- hostile values ----------

const ID_GARBAGE = [
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '00000000-0000-4000-8000-000000000000',
  "'; DROP TABLE model_results; --",
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(5000),
  '%F0%9F%98%80',
  '-1',
  '1e309',
  'NaN',
  '%E2%80%AE',
  '%FF%FE',
  'null',
  '__proto__',
  'constructor',
];
const QUERY_GARBAGE = [
  'skip=-1',
  'skip=1e309',
  'skip=99999999999999999999999',
  'limit=0',
  'limit=-5',
  'limit=1001',
  'limit=abc',
  'limit=1.5',
  'limit=',
  'skip=NaN&limit=Infinity',
  'start_date=2026-02-30',
  'start_date=2026-13-01',
  'end_date=not-a-date',
  'start_date=99999-01-01',
  'start_date=2026-01-01T25:61:00Z',
  'start_date=%00',
  'end_date=2026-01-01&start_date=2027-01-01',
  `model_str_id=${'m'.repeat(3000)}`,
  'model_str_id=%27%3B--',
  'limit=1&limit=2',
  'skip[]=1',
  'skip[a]=b',
  'status=bogus',
  `device=${'d'.repeat(2000)}`,
  `start_date=${'9'.repeat(400)}`,
  'limit=0x10',
  'limit=+5',
  'skip=%20%201',
];
const DEEP_JSON = (depth: number, open = '[', close = ']') => `${open.repeat(depth)}${close.repeat(depth)}`;
const DEEP_OBJECT = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const JSON_GARBAGE: (() => string)[] = [
  () => DEEP_JSON(100_000),
  () => DEEP_OBJECT(50_000),
  () => DEEP_JSON(2000),
  () => '{"vote": 1e400}',
  () => '{"vote": 123456789012345678901234567890}',
  () => '{"vote": -0}',
  () => '{"vote": "1"}',
  () => '{"vote": [1]}',
  () => '{"vote": null, "feedback": 5}',
  () => `{"vote": 1, "feedback": "${'f'.repeat(900_000)}"}`,
  () => `{"vote": 1, "feedback": "${'f'.repeat(2_000_000)}"}`,
  () => '{"__proto__": {"admin": true}, "vote": 1}',
  () => '{"constructor": {"prototype": {"x": 1}}}',
  () => '{"vote": 1,}',
  () => '{"vote": 1',
  () => 'null',
  () => '[]',
  () => '"string"',
  () => '12',
  () => '',
  () => '\u0000\u0001\u0002',
  () => '{"vote": "\ud800"}',
  () => `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}": ${i}`).join(',')}}`,
  () => `[${'1,'.repeat(200_000)}1]`,
  () => '{"a": 1e-400, "b": -1e308, "c": 1.7976931348623157e309}',
];

const QUBITS = ['2**31', '10**100', '-1', '0', '1e9', '2**64', 'float("inf")', '"2"', 'None', '65537', '[2]'];
const PYTHON_TRICKS = [
  "__import__('os').system('id')",
  "exec('print(1)')",
  "eval('1+1')",
  "open('/etc/passwd').read()",
  "getattr(qc, '__class__')",
  'qc.__class__.__bases__[0].__subclasses__()',
  '(lambda: 0)()',
  'x = [0] * 10**10',
  "s = 'a' * 10**9",
  'n = 2**2**2**2**2**2',
  'n = 10**10**10',
  'while True:\n    pass',
  'def f():\n    return f()\nf()',
  '[qc.h(0) for _ in range(10**9)]',
  'for i in range(10**12):\n    qc.h(0)',
  'import os\nos.system("id")',
  'from subprocess import run',
  'qc.h(10**9)',
  'qc.rx(1e400, 0)',
  'qc.rx(float("nan"), 0)',
  'globals()["__builtins__"]',
  'qc.h(*range(10**8))',
  'x = {i: i for i in range(10**9)}',
  'qc.append(qc, [0])',
  `qc.compose(qc, inplace=True)\n${'qc.compose(qc, inplace=True)\n'.repeat(60)}`,
  'qc = qc.power(10**9)',
  'qc.repeat(10**9)',
];
const QASM_TRICKS = [
  'qreg q[99999999999];',
  'qreg q[2147483648];',
  'qreg q[1000000];\nh q;',
  'creg c[99999999];',
  'qreg q[2];\nh q[5];',
  'qreg q[2];\nrx(1e999) q[0];',
  'qreg q[2];\nrx(99999999999999999999999999999999999999) q[0];',
  `qreg q[1];\nrx(${'('.repeat(5000)}0.1${')'.repeat(5000)}) q[0];`,
  `qreg q[1];\nrx(${'-'.repeat(50_000)}1) q[0];`,
  'gate g a { g a; }\nqreg q[1];\ng q[0];',
  `${Array.from({ length: 64 }, (_, i) => (i === 0 ? 'gate g0 a { h a; }' : `gate g${i} a { g${i - 1} a; g${i - 1} a; }`)).join('\n')}\nqreg q[1];\ng63 q[0];`,
  'include "/etc/passwd";\nqreg q[1];',
  'include "qelib1.inc";\ninclude "qelib1.inc";\nqreg q[1];',
  'qreg ∆[2];\nh ∆[0];',
  'qreg q[2];\nh q[0]; // \u202e\u200b😀',
  'qreg q[2];\n\u0000h q[0];',
  'qreg q[2];\nmeasure q -> c;',
  'qreg q[2];\ncreg c[2];\nif (c == 99999999999999999999) x q[0];',
  'qreg q[0];',
  'qreg q[-5];',
  'opaque g a;\nqreg q[1];\ng q[0];',
  'qreg q[3];\nccx q[0], q[0], q[0];',
];
const QASM3_TRICKS = [
  'qubit[1000000000] q;',
  'qubit[2] q;\nfor int i in [0:1000000000] { h q[0]; }',
  'qubit[2] q;\nwhile (true) { h q[0]; }',
  'qubit[2] q;\nint[64] x = 99999999999999999999999;',
  'qubit[2] q;\ndef f(qubit a) { f(a); }\nf(q[0]);',
  'qubit[2] q;\nbit[2147483647] c;',
  'qubit[2] q;\narray[int[32], 1000000000] a;',
  `qubit[1] q;\nrx(${'('.repeat(5000)}pi${')'.repeat(5000)}) q[0];`,
  'qubit[2] q;\nctrl(1000000) @ x q[0], q[1];',
  'qubit[2] q;\npow(1e12) @ x q[0];',
  'qubit[2] q;\ngate g a { g a; }\ng q[0];',
];
const CIRQ_TRICKS = [
  'import cirq\nq = cirq.LineQubit.range(10**9)\nc = cirq.Circuit()',
  'import cirq\nq = cirq.LineQubit.range(2)\nc = cirq.Circuit([cirq.H(q[0])] * 10**9)',
  'import cirq\nq = cirq.GridQubit(10**9, 10**9)\nc = cirq.Circuit(cirq.H(q))',
  "import cirq\nc = cirq.Circuit(__import__('os'))",
];

/** Circuit sources: each trick in Qiskit, OpenQASM 2/3 and Cirq clothing, plus raw garbage. */
function hostileCircuit(): string {
  const kind = random();
  if (kind < 0.35) {
    const header = `from qiskit import QuantumCircuit\nqc = QuantumCircuit(${random() < 0.3 ? pick(QUBITS) : '2'})\n`;
    return header + pick(PYTHON_TRICKS);
  }
  if (kind < 0.65) return `OPENQASM 2.0;\ninclude "qelib1.inc";\n${pick(QASM_TRICKS)}`;
  if (kind < 0.8) return `OPENQASM 3.0;\ninclude "stdgates.inc";\n${pick(QASM3_TRICKS)}`;
  if (kind < 0.9) return pick(CIRQ_TRICKS);
  return pick([
    '',
    ' ',
    'x'.repeat(900_000),
    '\u0000'.repeat(1000),
    '😀'.repeat(10_000),
    `from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\nqc.rx(${'('.repeat(5000)}1${')'.repeat(5000)}, 0)`,
    `from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)\n${'qc.h(0)\n'.repeat(100_000)}`,
    'OPENQASM 9.0;',
    'import numpy as np\nnp.zeros(10**12)',
  ]);
}

/** Stands for a number literal JSON.stringify cannot write (1e400, beyond a double); see overflowing(). */
const OVERFLOW = '<1e400>';
const overflowing = (json: string) => json.replaceAll(`"${OVERFLOW}"`, '1e400');

function circuitBody(tool: string): string {
  const code = hostileCircuit();
  const field = random() < 0.1 ? pick(['code', 'source_code', 'circuit', 'qasm']) : tool === 'transpile' ? 'source_code' : 'code';
  const extras: Record<string, unknown> = {};
  if (tool === 'transpile')
    extras['target'] = pick(['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket', 'bogus', '', 42, null, 'x'.repeat(10_000)]);
  if (tool === 'simulate') {
    extras['method'] = pick(['qasm', 'statevector', 'bogus', 7, null]);
    extras['shots'] = pick([1024, 0, -1, 1e12, 2 ** 53, 'abc', 1.5, null, OVERFLOW]);
    extras['backend'] = pick(['auto', 'x'.repeat(5000), 3]);
    if (random() < 0.5) extras['seed_simulator'] = pick([-1, 2 ** 64, 'seed', 1.5]);
  }
  if (tool === 'split-circuit') extras['max_subcircuit_qubits'] = pick([0, -5, 1e9, 'x', null, 1.5, 2]);
  const body = { [field]: random() < 0.05 ? pick([42, null, ['a'], { a: 1 }]) : code, ...extras };
  return overflowing(JSON.stringify(body));
}

function qpuBody(action: string): string {
  const body: Record<string, unknown> = {};
  if (action === 'submit' || action === 'estimate-cost') {
    body['code'] = random() < 0.5 ? hostileCircuit() : 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;';
    body['source_framework'] = pick(['qiskit', 'openqasm2', 'bogus', null, 5]);
    body['backend'] = pick(['qdc-sim-line-5', 'qdc-sim-ion-11', 'nope', '', 'x'.repeat(3000), '../../etc', null]);
    body['shots'] = pick([100, 0, -1, 1e12, 'many', 1.5, 2 ** 53]);
    if (action === 'submit') body['accept_overage'] = pick([false, 'yes', 1, null]);
    if (random() < 0.3) body['braket_execution_mode_hint'] = pick(['x'.repeat(10_000), 7]);
  } else {
    body['job_id'] = pick([...ID_GARBAGE, 5, null, ['a'], { $ne: null }]);
  }
  return JSON.stringify(body);
}

// ---------- hostile uploads ----------

const f8 = (n: number) => encodeNpy({ shape: [n], data: Float64Array.from({ length: n }, (_, i) => Math.sin(i / 7)) });

function npyHeader(dict: string, version = 1): Uint8Array {
  const text = `${dict}${' '.repeat(Math.max(0, 63 - dict.length))}\n`;
  const head = [0x93, ...new TextEncoder().encode('NUMPY'), version, 0];
  const length =
    version === 1 ? [text.length & 0xff, text.length >> 8] : [text.length & 0xff, (text.length >> 8) & 0xff, (text.length >> 16) & 0xff, text.length >>> 24];
  return Uint8Array.from([...head, ...length, ...new TextEncoder().encode(text)]);
}

function withData(header: Uint8Array, bytes: number): Uint8Array {
  const out = new Uint8Array(header.length + bytes);
  out.set(header);
  return out;
}

const pickleWith = (module: string, name: string) =>
  buildZip([
    ['archive/data.pkl', new PickleWriter().global(module, name).op(0x29, 0x52).build()],
    ['archive/data/0', new Uint8Array(8)],
  ]);

const UPLOADS: Array<{ name: string; bytes: () => Uint8Array }> = [
  { name: 'truncated.npy', bytes: () => f8(128).subarray(0, 100) },
  { name: 'magic-only.npy', bytes: () => Uint8Array.from([0x93, 0x4e, 0x55, 0x4d]) },
  { name: 'garbage.bin', bytes: () => Uint8Array.from({ length: 4096 }, () => Math.floor(random() * 256)) },
  { name: 'text.csv', bytes: () => new TextEncoder().encode('1,2,3\n4,5,6\n') },
  { name: 'json.npy', bytes: () => new TextEncoder().encode('{"data": [1, 2, 3]}') },
  { name: 'huge-header.npy', bytes: () => npyHeader(`{'descr': '<f8', 'fortran_order': False, 'shape': (1,), ${'x'.repeat(4_000_000)}}`, 2) },
  { name: 'huge-shape.npy', bytes: () => npyHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776,), }") },
  { name: 'many-dims.npy', bytes: () => npyHeader(`{'descr': '<f8', 'fortran_order': False, 'shape': (${'1, '.repeat(10_000)}), }`, 2) },
  { name: 'negative-shape.npy', bytes: () => npyHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }") },
  { name: 'nested-header.npy', bytes: () => npyHeader(`{'descr': ${'['.repeat(5000)}${']'.repeat(5000)}, 'fortran_order': False, 'shape': (1,), }`, 2) },
  { name: 'object.npy', bytes: () => withData(npyHeader("{'descr': '|O', 'fortran_order': False, 'shape': (4,), }"), 32) },
  { name: 'complex.npy', bytes: () => withData(npyHeader("{'descr': '<c16', 'fortran_order': False, 'shape': (4,), }"), 64) },
  { name: 'unicode.npy', bytes: () => withData(npyHeader("{'descr': '<U10', 'fortran_order': False, 'shape': (4,), }"), 160) },
  { name: 'structured.npy', bytes: () => withData(npyHeader("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (4,), }"), 32) },
  { name: 'datetime.npy', bytes: () => withData(npyHeader("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (4,), }"), 32) },
  { name: 'nan.npy', bytes: () => encodeNpy({ shape: [128], data: new Float64Array(128).fill(Number.NaN) }) },
  { name: 'inf.npy', bytes: () => encodeNpy({ shape: [128], data: new Float64Array(128).fill(Number.POSITIVE_INFINITY) }) },
  { name: 'empty.npy', bytes: () => encodeNpy({ shape: [0], data: new Float64Array(0) }) },
  { name: 'scalar.npy', bytes: () => encodeNpy({ shape: [], data: Float64Array.of(1) }) },
  { name: '5d.npy', bytes: () => encodeNpy({ shape: [2, 2, 2, 2, 2], data: new Float64Array(32) }) },
  { name: 'big-endian-i8.npy', bytes: () => withData(npyHeader("{'descr': '>i8', 'fortran_order': True, 'shape': (16, 8), }"), 1024) },
  { name: 'bomb.pt', bytes: () => torchZipBomb(52_428_800) },
  { name: 'bomb-batch.pt', bytes: () => torchZipBomb(52_428_800, { shape: [409_600, 128] }) },
  { name: 'liar.pt', bytes: () => torchZipBomb(1000, { inflatedBytes: 64 * 1024 * 1024 }) },
  { name: 'declared.pt', bytes: () => torchZipBomb(1000, { declaredSize: 400_000_000, inflatedBytes: 4000 }) },
  { name: 'bomb.npz', bytes: () => npzZipBomb(200 * 1024 * 1024) },
  { name: 'os-system.pt', bytes: () => pickleWith('os', 'system') },
  { name: 'posix-system.pt', bytes: () => pickleWith('posix', 'system') },
  { name: 'builtins-eval.pt', bytes: () => pickleWith('builtins', 'eval') },
  { name: 'subprocess.pt', bytes: () => pickleWith('subprocess', 'Popen') },
  { name: 'numpy-reconstruct.pt', bytes: () => pickleWith('numpy.core.multiarray', '_reconstruct') },
  { name: 'complex-storage.pt', bytes: () => pickleWith('torch', 'ComplexFloatStorage') },
  { name: 'pickle-bare.pt', bytes: () => new PickleWriter().global('os', 'system').build() },
  {
    name: 'pickle-memo-bomb.pt',
    bytes: () => buildZip([['archive/data.pkl', Uint8Array.from([0x80, 0x02, ...Array.from({ length: 100_000 }, () => [0x28]).flat(), 0x2e])]]),
  },
  { name: 'zip-empty.pt', bytes: () => buildZip([]) },
  { name: 'zip-truncated.pt', bytes: () => torchZipBomb(1000).subarray(0, 300) },
  {
    name: 'stride-zero.pt',
    bytes: () =>
      buildZip([
        ['archive/data.pkl', new PickleWriter().tensor('FloatStorage', '0', 1, 0, [1 << 26], [0]).build()],
        ['archive/data/0', new Uint8Array(4)],
      ]),
  },
  {
    name: 'view-outside.pt',
    bytes: () =>
      buildZip([
        ['archive/data.pkl', new PickleWriter().tensor('FloatStorage', '0', 4, 1000, [128], [1]).build()],
        ['archive/data/0', new Uint8Array(16)],
      ]),
  },
  { name: 'ok.npy', bytes: () => f8(128) },
];
const MODELS = [
  'coulomb-blockade-peak-detector-v2',
  'coulomb-blockade-peak-detector-v0',
  'charge-stability-diagram-binary-classifier-v0-16x16',
  'ising-decoding-v1-fast',
  'anticrossing-detector-v0',
  'resonator-dip-finder-v0',
  'nope',
  '',
  'x'.repeat(3000),
  '../etc/passwd',
];

function uploadBody(batch: boolean): () => FuzzBody {
  const upload = pick(UPLOADS);
  const model = batch ? pick(['coulomb-blockade-peak-detector-v2', 'coulomb-blockade-peak-detector-v1', 'nope']) : pick(MODELS);
  const fields: Record<string, string> = { model };
  if (random() < 0.3) fields['plot'] = pick(['true', 'false', 'maybe', '2', '']);
  if (random() < 0.2) fields['dark_mode'] = pick(['true', '1', 'yes', 'x'.repeat(100)]);
  const fileField = random() < 0.1 ? pick(['file', 'model', 'dataa']) : 'data';
  return () => multipart(random() < 0.05 ? {} : fields, random() < 0.05 ? undefined : { field: fileField, name: upload.name, bytes: upload.bytes() });
}

function malformedMultipart(): { headers: Record<string, string>; body: () => FuzzBody } {
  return pick([
    {
      headers: { 'content-type': 'multipart/form-data; boundary=expected' },
      body: () => '--other\r\nContent-Disposition: form-data; name="model"\r\n\r\nx\r\n--other--\r\n',
    },
    { headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: () => JSON.stringify({ model: 'x', data: [1, 2] }) },
    { headers: { 'content-type': 'multipart/form-data' }, body: () => 'no boundary' },
    { headers: { 'content-type': `multipart/form-data; boundary=${'b'.repeat(5000)}` }, body: () => 'x' },
    {
      headers: { 'content-type': 'multipart/form-data; boundary=z' },
      body: () => `--z\r\nContent-Disposition: form-data; name="data"; filename="a.npy"\r\n\r\n${'\u0000'.repeat(100)}`,
    },
    { headers: { 'content-type': 'application/json' }, body: () => JSON.stringify({ model: 'coulomb-blockade-peak-detector-v2', data: [1, 2, 3] }) },
    { headers: { 'content-type': 'text/plain' }, body: () => 'hello' },
    { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: () => 'model=x&data=y' },
  ]);
}

// ---------- the route table ----------

const CONTROL_BASES = ['/v0', '/v0/control'];
const TOOL_BASES = ['/v0/coda/tools', '/v0/coda', '/v0/tools', '/v0'];
const TOOLS = ['transpile', 'simulate', 'to-openqasm3', 'estimate-resources', 'split-circuit'];

function controlAgentBody(): string {
  return pick([
    () => JSON.stringify({ image_base64: 'x'.repeat(100), prompt: 'fit this' }),
    () => JSON.stringify({ image_base64: `iVBORw0KGgo${'A'.repeat(2000)}`, prompt: 'p' }),
    () => JSON.stringify({ image_base64: pngBombBase64(), prompt: 'p' }),
    () => JSON.stringify({ data: { x: [1, 2, 3], y: [1, 2] } }),
    () => JSON.stringify({ data: { x: Array.from({ length: 50_000 }, (_, i) => i), y: Array.from({ length: 50_000 }, () => random()) } }),
    () => JSON.stringify({ data: { x: ['a', 'b'], y: [null, {}] } }),
    () => JSON.stringify({ data: { experiment: 'x'.repeat(10_000), x: [1e308, -1e308, 1e-320], y: [1e308, 1e308, 1e308] } }),
    () =>
      JSON.stringify({
        data: {
          x: [1, 2, 3],
          y: [
            [1, 2, 3],
            [1, 2],
          ],
        },
      }),
    () => JSON.stringify({ max_tokens: -1, prompt: 5 }),
    () => JSON.stringify({}),
    () => pick(JSON_GARBAGE)(),
  ])();
}

/** A PNG whose header claims 100 000 × 100 000 pixels (a decompression bomb for a naive decoder). */
function pngBombBase64(): string {
  const bytes = Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 1, 0x86, 0xa0, 0, 1, 0x86, 0xa0, 8, 2, 0, 0, 0, 0, 0, 0, 0,
  ]);
  return Buffer.from(bytes).toString('base64');
}

function assistantBody(): string {
  return pick([
    () => JSON.stringify({ messages: [{ role: 'user', content: 'make a bell state' }], budget: pick(['low', 'x', 5]) }),
    () => JSON.stringify({ messages: [{ role: 'hacker', content: 'x' }] }),
    () => JSON.stringify({ messages: 'hello' }),
    () => JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(900_000) }] }),
    () => JSON.stringify({ messages: Array.from({ length: 5000 }, () => ({ role: 'user', content: 'hi' })) }),
    () => JSON.stringify({ messages: [{ role: 'user', content: '\u0000\ud800😀' }], thread_id: 'x'.repeat(5000) }),
    () => JSON.stringify({ messages: [], code_mode: 'bogus' }),
    () => pick(JSON_GARBAGE)(),
  ])();
}

function buildCases(): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const json = { 'content-type': 'application/json' };
  // Query strings and path ids (GETs, DELETEs).
  for (const base of CONTROL_BASES) {
    for (const q of QUERY_GARBAGE) {
      cases.push({ group: 'models (list/get)', method: 'GET', path: `${base}/models?${q}`, auth: 'control' });
      cases.push({ group: 'model-results (list)', method: 'GET', path: `${base}/model-results?${q}`, auth: 'control' });
      cases.push({ group: 'control agents (list)', method: 'GET', path: `${base === '/v0' ? '/v0/control' : base}/agents?${q}`, auth: 'control' });
    }
    for (const id of ID_GARBAGE) {
      cases.push({ group: 'models (list/get)', method: 'GET', path: `${base}/models/${id}`, auth: 'control' });
      for (const [method, suffix] of [
        ['GET', ''],
        ['DELETE', ''],
        ['GET', '/download'],
        ['DELETE', '/vote'],
      ] as const) {
        cases.push({ group: 'model-results (id)', method, path: `${base}/model-results/${id}${suffix}`, auth: 'control' });
      }
    }
  }
  for (const q of QUERY_GARBAGE)
    cases.push({ group: 'qpus (list/jobs)', method: 'GET', path: `${pick(['/v0/coda/qpus/jobs', '/v0/qpus/jobs'])}?${q}`, auth: 'coda' });
  for (const path of ['/v0/coda/qpus', '/v0/qpu/devices', '/v0/coda/qpu/devices', '/v0/coda/agents', '/v0/agents'])
    cases.push({ group: 'qpus (list/jobs)', method: 'GET', path, auth: 'coda' });
  // System and unknown routes.
  for (const path of [
    '/v0/health',
    '/v0/coda/health',
    '/health',
    '/livez',
    '/readyz',
    '/metrics',
    '/v0/openapi.json',
    '/docs',
    '/docs/assets/../../etc/passwd',
    '/docs/assets/x%00',
    '/v0/search',
    '/v0/fetch',
    '/nope',
    '/v0/nope',
    `/${'a'.repeat(8000)}`,
    '/%E0%A4%A',
    '/v0/models/%',
  ]) {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])
      cases.push({ group: 'system/unknown', method, path, auth: pick(['none', 'control']) });
  }
  // Admin.
  for (let i = 0; i < 60; i++) {
    const auth: Auth = pick(['admin', 'control', 'none']);
    cases.push(
      pick([
        { group: 'admin', method: 'GET', path: `/v0/admin/keys?${pick(QUERY_GARBAGE)}`, auth },
        {
          group: 'admin',
          method: 'POST',
          path: '/v0/admin/keys',
          auth,
          headers: json,
          body: () =>
            pick([
              JSON.stringify({ name: 'x'.repeat(5000), scopes: ['root'] }),
              JSON.stringify({ name: 'n', owner: '\u0000', scopes: 'control' }),
              JSON.stringify({ scopes: ['control', 'admin', 'admin'] }),
              pick(JSON_GARBAGE)(),
            ]),
        },
        { group: 'admin', method: 'DELETE', path: `/v0/admin/keys/${pick(ID_GARBAGE)}`, auth },
        { group: 'admin', method: 'GET', path: `/v0/admin/budgets/${pick(ID_GARBAGE)}`, auth },
        {
          group: 'admin',
          method: 'PUT',
          path: `/v0/admin/budgets/${pick(ID_GARBAGE)}`,
          auth,
          headers: json,
          body: () => pick([JSON.stringify({ budget_cents: -1 }), '{"budget_cents": 1e400}', JSON.stringify({ budget_cents: '5' }), pick(JSON_GARBAGE)()]),
        },
      ]),
    );
  }
  // Votes (JSON bodies).
  for (let i = 0; i < 300; i++) {
    cases.push({
      group: 'votes (JSON)',
      method: 'PUT',
      path: `${pick(CONTROL_BASES)}/model-results/${pick(ID_GARBAGE)}/vote`,
      auth: 'control',
      headers: random() < 0.9 ? json : { 'content-type': pick(['text/plain', 'application/xml', 'application/json; charset=utf-16']) },
      body: pick(JSON_GARBAGE),
    });
  }
  // Uploads.
  for (let i = 0; i < 1100; i++) {
    const batch = random() < 0.3;
    const path = `${pick(CONTROL_BASES)}/models${batch ? '/batch' : ''}`;
    if (random() < 0.12) {
      const bad = malformedMultipart();
      cases.push({ group: 'models run (upload)', method: 'POST', path, auth: 'control', headers: bad.headers, body: bad.body });
    } else {
      cases.push({ group: 'models run (upload)', method: 'POST', path, auth: 'control', body: uploadBody(batch) });
    }
  }
  // Circuit tools.
  for (let i = 0; i < 1500; i++) {
    const tool = pick(TOOLS);
    const garbage = random() < 0.1;
    cases.push({
      group: 'coda tools (circuits)',
      method: 'POST',
      path: `${pick(TOOL_BASES)}/${tool}`,
      auth: 'coda',
      headers: json,
      body: () => (garbage ? pick(JSON_GARBAGE)() : circuitBody(tool)),
    });
  }
  // QPUs.
  for (let i = 0; i < 500; i++) {
    const [canonical, legacy, action] = pick([
      ['qpus', 'qpu/submit', 'submit'],
      ['qpus/status', 'qpu/status', 'status'],
      ['qpus/estimate-cost', 'qpu/estimate-cost', 'estimate-cost'],
      ['qpus/cancel', 'qpus/cancel', 'cancel'],
    ] as const);
    const headers: Record<string, string> = { ...json };
    if (action === 'submit' && random() < 0.4) headers['idempotency-key'] = pick(['k', 'x'.repeat(5000), '\u00ff\u00fe', 'same-key']);
    cases.push({
      group: 'qpus (submit/status)',
      method: 'POST',
      path: `${pick(['/v0/coda', '/v0'])}/${random() < 0.5 ? canonical : legacy}`,
      auth: 'coda',
      headers,
      body: () => (random() < 0.1 ? pick(JSON_GARBAGE)() : qpuBody(action)),
    });
  }
  // Control agents and the assistant.
  for (let i = 0; i < 250; i++) {
    cases.push({
      group: 'control agents (run)',
      method: 'POST',
      path: `${pick(['/v0/control/agents', '/v0/agents'])}/${random() < 0.85 ? 'ising-calibration-v1' : pick(ID_GARBAGE)}`,
      auth: 'control',
      headers: json,
      body: controlAgentBody,
    });
  }
  for (let i = 0; i < 120; i++) {
    cases.push({
      group: 'assistant (SSE)',
      method: 'POST',
      path: pick(['/v0/agents', '/v0/coda/agents']),
      auth: 'coda',
      headers: json,
      body: assistantBody,
      stream: true,
    });
  }
  // Headers: auth and X-Request-Id on a spread of routes.
  const probes: Array<[string, string]> = [
    ['GET', '/v0/models?limit=1'],
    ['GET', '/v0/model-results?limit=1'],
    ['GET', '/v0/coda/qpus'],
    ['GET', '/v0/control/agents'],
  ];
  const badAuth = [
    'Bearer',
    'Bearer ',
    'Basic dXNlcjpwYXNz',
    'Bearer coda_',
    `Bearer coda_${'A'.repeat(43)}`,
    `Bearer ${'x'.repeat(8000)}`,
    'bearer coda_invalidinvalidinvalidinvalidinvalidinv',
    'Token abc',
    'Bearer coda_%00%00',
    'Bearer  coda_double_space',
    '\tBearer x',
  ];
  for (let i = 0; i < 250; i++) {
    const [method, path] = pick(probes);
    cases.push({ group: 'headers (auth)', method, path, auth: 'none', headers: { authorization: pick(badAuth) } });
    cases.push({
      group: 'headers (X-Request-Id)',
      method,
      path,
      auth: pick(['control', 'both']),
      headers: {
        'x-request-id': pick([
          'r'.repeat(129),
          'r'.repeat(10_000),
          'has space',
          '<script>',
          '../../x',
          '%00',
          'ok-id',
          '\u00ff\u00fe',
          ',,,,',
          'a'.repeat(128),
        ]),
      },
    });
  }
  // Raw requests fetch will not send: control bytes in headers, oversized headers, broken framing.
  const rawRequests = [
    (port: string) => `GET /v0/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Request-Id: \u0001\u0002\u007f\r\n\r\n`,
    (port: string) => `GET /v0/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    (port: string) => `GET /v0/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer \u00ff\u00fe\r\n\r\n`,
    (port: string) => `POST /v0/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    (port: string) => `POST /v0/models HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: -1\r\n\r\n`,
    (port: string) => `GET /v0/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${Array.from({ length: 200 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`,
    (port: string) => `GARBAGE / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    (port: string) => `GET /v0/health HTTP/9.9\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
    (port: string) => `GET ${'/a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
  ];
  for (let i = 0; i < 90; i++)
    cases.push({ group: 'raw HTTP', method: 'RAW', path: String(i % rawRequests.length), raw: rawRequests[i % rawRequests.length]!('') });
  return cases;
}

// ---------- sending ----------

function rawRequest(baseUrl: string, request: string): Promise<{ status: number | 'reset'; excerpt: string }> {
  const { hostname, port } = new URL(baseUrl);
  const text = request.replace('Host: 127.0.0.1:\r\n', `Host: 127.0.0.1:${port}\r\n`);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname, () => socket.write(Buffer.from(text, 'latin1')));
    let response = '';
    socket.setTimeout(CLIENT_TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk) => {
      response += chunk.toString('latin1');
      if (/\r\n\r\n/.test(response)) socket.end();
    });
    const finish = () => {
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(response);
      done({ status: status ? Number(status[1]) : 'reset', excerpt: response.slice(0, 200) });
    };
    socket.on('close', finish);
    socket.on('error', () => undefined);
  });
}

async function send(sut: FuzzStack, keys: Record<Exclude<Auth, 'none'>, string>, c: FuzzCase): Promise<Answer> {
  const label = `${c.method} ${c.path.length > 90 ? `${c.path.slice(0, 90)}…` : c.path}`;
  if (c.raw !== undefined) {
    const { status, excerpt } = await rawRequest(sut.baseUrl, c.raw);
    return { group: c.group, label: `RAW #${c.path}`, status, excerpt };
  }
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.auth && c.auth !== 'none' && !headers['authorization']) headers['authorization'] = `Bearer ${keys[c.auth]}`;
  try {
    const res = await fetch(`${sut.baseUrl}${c.path}`, {
      method: c.method,
      headers,
      body: c.body && c.method !== 'GET' && c.method !== 'HEAD' ? c.body() : undefined,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    let excerpt = '';
    if (c.stream) {
      const reader = res.body?.getReader();
      const first = await reader?.read();
      excerpt = first?.value ? new TextDecoder().decode(first.value).slice(0, 200) : '';
      await reader?.cancel();
    } else {
      excerpt = (await res.text()).slice(0, 200);
    }
    return { group: c.group, label, status: res.status, excerpt };
  } catch (error) {
    const name = (error as Error).name;
    return { group: c.group, label, status: name === 'TimeoutError' ? 'timeout' : 'reset', excerpt: String((error as Error).message).slice(0, 200) };
  }
}

function shuffled<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The 12 slowest distinct requests under load, each sent again alone: its own cost, without the queue in front of it. */
async function reportSlowest(sut: FuzzStack, keys: Record<Exclude<Auth, 'none'>, string>, answers: Answer[], sentCase: Map<number, FuzzCase>): Promise<void> {
  const seen = new Set<string>();
  const slowest: [Answer, FuzzCase][] = [];
  for (const i of answers.map((_, k) => k).sort((a, b) => (answers[b]!.ms ?? 0) - (answers[a]!.ms ?? 0))) {
    const key = `${answers[i]!.group} ${answers[i]!.label}`;
    if (seen.has(key) || !sentCase.has(i)) continue;
    seen.add(key);
    slowest.push([answers[i]!, sentCase.get(i)!]);
    if (slowest.length === 12) break;
  }
  console.log('\n| slowest requests | ms under load | ms alone | status alone |');
  console.log('|---|---|---|---|');
  for (const [answer, c] of slowest) {
    const start = performance.now();
    const alone = await send(sut, keys, c);
    const label = `[${answer.group}] ${answer.label}`.replace(/\|/g, '\\|');
    console.log(`| ${label} | ${(answer.ms ?? 0).toFixed(0)} | ${(performance.now() - start).toFixed(0)} | ${alone.status} |`);
    const body = c.body?.();
    if (process.env.FUZZ_SHOW_BODY && typeof body === 'string') console.log(`    body: ${body.length} chars: ${body.slice(0, 400).replace(/\s+/g, ' ')}`);
  }
}

async function main(): Promise<void> {
  const sut = await startStack({ QDC_RATE_LIMIT_PER_MINUTE: '10000000' });
  const crashed: string[] = [];
  const startRss = new Map<string, number>();
  const pids = new Map<string, number>();
  for (const [name, child] of sut.processes) {
    pids.set(name, child.pid!);
    startRss.set(name, residentBytes(child.pid!, 'VmRSS'));
    child.on('exit', (code, signal) => crashed.push(`${name} (exit ${code ?? signal})`));
  }
  const keys = {
    control: await sut.createKey('fuzz-control', 'control'),
    coda: await sut.createKey('fuzz-coda', 'coda'),
    admin: await sut.createKey('fuzz-admin', 'admin,control,coda'),
    both: await sut.createKey('fuzz-both', 'control,coda'),
  };
  // Shuffled (seeded) so that heavy and light requests interleave; topped up from another shuffled pass.
  let cases = shuffled(buildCases());
  while (cases.length < MIN_REQUESTS) cases = cases.concat(shuffled(buildCases()).slice(0, MIN_REQUESTS - cases.length));
  console.log(`fuzz: ${cases.length} requests, concurrency ${CONCURRENCY}, seed ${SEED}, logs in ${sut.logDir}`);

  const answers: Answer[] = [];
  const sentCase = new Map<number, FuzzCase>();
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < cases.length && Date.now() - started < MAX_SECONDS * 1000) {
        const generated = cases[next++]!;
        // The body is made once, so that the slowest requests can be sent again as they were.
        const body = generated.body?.();
        const c: FuzzCase = body === undefined ? generated : { ...generated, body: () => body };
        const start = performance.now();
        const answer = await send(sut, keys, c);
        answers.push({ ...answer, ms: performance.now() - start });
        sentCase.set(answers.length - 1, c);
        if (answers.length % 500 === 0) console.log(`  ${answers.length}/${cases.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    }),
  );
  if (answers.length < cases.length) console.log(`time budget of ${MAX_SECONDS} s reached: ${answers.length} of ${cases.length} requests sent`);
  const healthy = await fetch(`${sut.baseUrl}/readyz`).then(
    (r) => r.status,
    () => 'down',
  );

  // Status counts per group.
  const groups = [...new Set(answers.map((a) => a.group))].sort();
  const bucket = (s: Answer['status']) => (typeof s === 'number' ? `${Math.floor(s / 100)}xx` : s);
  const columns = ['2xx', '3xx', '4xx', '5xx', 'timeout', 'reset'];
  console.log(`\n| route group | requests | ${columns.join(' | ')} | statuses seen |`);
  console.log(`|---|---|${columns.map(() => '---').join('|')}|---|`);
  for (const group of groups) {
    const mine = answers.filter((a) => a.group === group);
    const counts = columns.map((c) => mine.filter((a) => bucket(a.status) === c).length);
    const statuses = [...new Set(mine.map((a) => String(a.status)))].sort().join(' ');
    console.log(`| ${group} | ${mine.length} | ${counts.join(' | ')} | ${statuses} |`);
  }
  const total = columns.map((c) => answers.filter((a) => bucket(a.status) === c).length);
  console.log(`| **all** | ${answers.length} | ${total.join(' | ')} | |`);

  const fives = answers.filter((a) => typeof a.status === 'number' && a.status >= 500);
  const stalls = answers.filter((a) => a.status === 'timeout');
  console.log(
    `\n5xx: ${fives.length} (target 0); client timeouts (> ${CLIENT_TIMEOUT_MS / 1000} s): ${stalls.length}; crashed processes: ${crashed.length} (target 0)${crashed.length ? ` — ${crashed.join(', ')}` : ''}; ready after: ${healthy}`,
  );
  const distinct = new Map<string, Answer & { count: number }>();
  for (const a of [...fives, ...stalls]) {
    const k = `${a.status} ${a.label.replace(/[0-9a-f-]{36}/g, ':id')}`;
    const seen = distinct.get(k);
    if (seen) seen.count++;
    else distinct.set(k, { ...a, count: 1 });
  }
  for (const [k, a] of [...distinct].slice(0, 60)) console.log(`  ${a.count}× ${k} [${a.group}] ${a.excerpt.replace(/\s+/g, ' ').slice(0, 160)}`);

  await reportSlowest(sut, keys, answers, sentCase);

  console.log('\n| process | RSS at start (MiB) | peak RSS (MiB) | RSS at end (MiB) |');
  console.log('|---|---|---|---|');
  for (const [name, pid] of pids) {
    const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    console.log(`| ${name} | ${mib(startRss.get(name) ?? 0)} | ${mib(residentBytes(pid, 'VmHWM'))} | ${mib(residentBytes(pid, 'VmRSS'))} |`);
  }
  console.log(`\nelapsed ${((Date.now() - started) / 1000).toFixed(0)} s`);
  // Before stopping: the stack's own shutdown ends every process, which is not a crash.
  process.exitCode = fives.length === 0 && crashed.length === 0 ? 0 : 1;
  await sut.stop();
}

await main();
