import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { compileToDevice } from '../compile/compile-to-device.js';
import { parseQasm } from '../frontends/qasm.parser.js';
import { simulateNoisy } from '../noise/simulate-noisy.js';
import { deviceNoiseSummary, deviceTarget, validateDeviceSpec, type DeviceSpec } from './device-spec.js';

const DIR = resolve(process.cwd(), 'devices');
const shipped = (): DeviceSpec[] =>
  readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => validateDeviceSpec(JSON.parse(readFileSync(resolve(DIR, f), 'utf8'))));

const ghz5 = parseQasm(
  'OPENQASM 2.0; include "qelib1.inc"; qreg q[5]; creg c[5]; h q[0]; cx q[0],q[1]; cx q[1],q[2]; cx q[2],q[3]; cx q[3],q[4]; measure q -> c;',
).circuit;

describe(validateDeviceSpec.name, () => {
  it('accepts the three shipped simulated devices', () => {
    const devices = shipped();
    const byId = new Map(devices.map((d) => [d.id, d]));
    expect(byId.size).toBe(devices.length);
    const line = byId.get('qdc-sim-line-5')!;
    expect([line.num_qubits, line.native_gates, line.coupling_map?.length]).toEqual([5, ['rz', 'sx', 'x', 'cz'], 4]);
    const hex = byId.get('qdc-sim-heavyhex-16')!;
    expect([hex.num_qubits, hex.native_gates, hex.coupling_map?.length]).toEqual([16, ['rz', 'sx', 'x', 'ecr'], 16]);
    const ion = byId.get('qdc-sim-ion-11')!;
    expect([ion.num_qubits, ion.native_gates, ion.coupling_map]).toEqual([11, ['gpi', 'gpi2', 'ms'], null]);
    for (const d of devices) expect(d.noise!.qubits).toHaveLength(d.num_qubits);
  });

  it.each(['qdc-sim-line-5', 'qdc-sim-heavyhex-16', 'qdc-sim-ion-11'])('runs a GHZ-5 on %s with visible but moderate noise', (id) => {
    const device = shipped().find((d) => d.id === id)!;
    const compiled = compileToDevice(ghz5, deviceTarget(device), { seed: 1 });
    const result = simulateNoisy(compiled.circuit, device.noise!, { shots: 4000, seed: 2 });
    expect(Object.values(result.counts).reduce((a, b) => a + b, 0)).toBe(4000);
    const fidelity = ((result.counts['00000'] ?? 0) + (result.counts['11111'] ?? 0)) / 4000;
    expect(fidelity).toBeGreaterThan(0.7);
    expect(fidelity).toBeLessThan(0.995);
  });

  it('summarises noise as medians', () => {
    const s = deviceNoiseSummary(shipped().find((d) => d.id === 'qdc-sim-line-5')!.noise!);
    expect(s.t1_us).toBeGreaterThan(50);
    expect(s.two_qubit_error).toBeGreaterThan(s.single_qubit_error);
  });

  it('says which field is wrong, what was expected and what came', () => {
    const good = shipped().find((d) => d.id === 'qdc-sim-line-5')!;
    const copy = () => JSON.parse(JSON.stringify(good));
    expect(() => validateDeviceSpec({ ...copy(), num_qubits: 0 })).toThrow('device file: num_qubits must be a positive integer; got 0');
    expect(() => validateDeviceSpec({ ...copy(), coupling_map: [[0, 9]] })).toThrow(
      'device file: coupling_map[0] must be two different qubits in 0..4; got [0,9]',
    );
    expect(() => validateDeviceSpec({ ...copy(), native_gates: ['h', 'cz'] })).toThrow(/no one-qubit basis/);
    const noEdge = copy();
    noEdge.noise.edges.pop();
    expect(() => validateDeviceSpec(noEdge)).toThrow('device file: noise.edges must be a two_qubit_error for coupling edge [3, 4]; got "none"');
    const t2 = copy();
    t2.noise.qubits[0].t2_us = 3 * t2.noise.qubits[0].t1_us;
    expect(() => validateDeviceSpec(t2)).toThrow(/t2_us .* must be ≤ 2·t1_us/);
    const { noise: _noise, ...noNoise } = copy();
    expect(() => validateDeviceSpec(noNoise)).toThrow(/noise must be present for a simulated/);
  });
});
