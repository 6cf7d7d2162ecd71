/**
 * Device files (SPEC.md §6 device fields): validation and what the compiler and the noisy
 * simulator need from them. Pure: the caller reads the JSON (the repository ships three in
 * `devices/`, the broker's default QDC_QPU_DEVICES_DIR).
 */
import { CircuitError } from '../errors.js';
import { nativeSet, type DeviceTarget } from '../compile/compile-to-device.js';
import { validateNoiseModel, type NoiseModel } from '../noise/noise-model.js';

export interface DeviceSpec {
  id: string;
  name: string;
  provider: string;
  num_qubits: number;
  native_gates: string[];
  /** Null = all-to-all. */
  coupling_map: [number, number][] | null;
  status: 'online' | 'offline' | 'maintenance';
  pricing: { per_task_cents: number; per_shot_cents: number };
  /** Per-qubit and per-edge figures (noise-model.ts); required for simulated (`qdc-sim`) devices. */
  noise?: NoiseModel;
  max_shots: number;
  shot_time_us: number;
}

/** Median figures of a device, for listings (SPEC §6 `noise` summary fields). */
export interface DeviceNoiseSummary {
  t1_us: number | null;
  t2_us: number | null;
  single_qubit_error: number;
  two_qubit_error: number | null;
  readout_error: number;
}

const bad = (where: string, expected: string, got: unknown) =>
  new CircuitError('semantic', `device file: ${where} must be ${expected}; got ${JSON.stringify(got)?.slice(0, 80)}`);

function nonNegative(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw bad(where, 'a non-negative number', v);
  return v;
}

/** Checks a parsed device file; every error names the field, what was expected and what came. */
export function validateDeviceSpec(input: unknown): DeviceSpec {
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw bad('the file', 'a JSON object', input);
  const d = input as DeviceSpec;
  if (typeof d.id !== 'string' || !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(d.id))
    throw bad('id', 'lower-case letters, digits, dots, dashes, underscores (≤ 64)', d.id);
  if (typeof d.name !== 'string' || !d.name) throw bad('name', 'a non-empty string', d.name);
  if (typeof d.provider !== 'string' || !d.provider) throw bad('provider', 'a non-empty string', d.provider);
  if (!Number.isInteger(d.num_qubits) || d.num_qubits < 1) throw bad('num_qubits', 'a positive integer', d.num_qubits);
  if (!Array.isArray(d.native_gates) || d.native_gates.length === 0 || !d.native_gates.every((g) => typeof g === 'string'))
    throw bad('native_gates', 'a non-empty list of gate names', d.native_gates);
  nativeSet(d.native_gates);
  if (d.coupling_map !== null) {
    if (!Array.isArray(d.coupling_map)) throw bad('coupling_map', 'a list of [a, b] pairs or null', d.coupling_map);
    d.coupling_map.forEach((e, i) => {
      if (!Array.isArray(e) || e.length !== 2 || !e.every((q) => Number.isInteger(q) && q >= 0 && q < d.num_qubits) || e[0] === e[1]) {
        throw bad(`coupling_map[${i}]`, `two different qubits in 0..${d.num_qubits - 1}`, e);
      }
    });
  }
  if (!['online', 'offline', 'maintenance'].includes(d.status)) throw bad('status', '"online", "offline" or "maintenance"', d.status);
  if (!d.pricing || typeof d.pricing !== 'object') throw bad('pricing', '{per_task_cents, per_shot_cents}', d.pricing);
  nonNegative(d.pricing.per_task_cents, 'pricing.per_task_cents');
  nonNegative(d.pricing.per_shot_cents, 'pricing.per_shot_cents');
  if (!Number.isInteger(d.max_shots) || d.max_shots < 1) throw bad('max_shots', 'a positive integer', d.max_shots);
  nonNegative(d.shot_time_us, 'shot_time_us');
  if (d.noise !== undefined) {
    const noise = validateNoiseModel(d.noise);
    if (noise.qubits.length !== d.num_qubits) throw bad('noise.qubits', `one entry per qubit (${d.num_qubits})`, `${noise.qubits.length} entries`);
    const known = new Set(noise.edges.map((e) => `${Math.min(...e.qubits)},${Math.max(...e.qubits)}`));
    const edges: [number, number][] = d.coupling_map ?? allPairs(d.num_qubits);
    for (const [a, b] of edges)
      if (!known.has(`${Math.min(a, b)},${Math.max(a, b)}`)) throw bad('noise.edges', `a two_qubit_error for coupling edge [${a}, ${b}]`, 'none');
  } else if (d.provider === 'qdc-sim') throw bad('noise', 'present for a simulated (qdc-sim) device', undefined);
  return d;
}

function allPairs(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) out.push([a, b]);
  return out;
}

/** What compileToDevice needs. */
export const deviceTarget = (d: DeviceSpec): DeviceTarget => ({ numQubits: d.num_qubits, nativeGates: d.native_gates, couplingMap: d.coupling_map });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function deviceNoiseSummary(noise: NoiseModel): DeviceNoiseSummary {
  const t1 = noise.qubits.map((q) => q.t1_us).filter((t): t is number => t !== null);
  const t2 = noise.qubits.map((q) => q.t2_us).filter((t): t is number => t !== null);
  return {
    t1_us: t1.length ? median(t1) : null,
    t2_us: t2.length ? median(t2) : null,
    single_qubit_error: median(noise.qubits.map((q) => q.single_qubit_error)),
    two_qubit_error: noise.edges.length ? median(noise.edges.map((e) => e.two_qubit_error)) : null,
    readout_error: median(noise.qubits.map((q) => q.readout_error)),
  };
}
