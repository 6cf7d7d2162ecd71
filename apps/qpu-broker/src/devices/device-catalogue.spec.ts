import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDeviceFiles } from './device-catalogue.js';

const shipped = resolve('devices');
const dirWith = (files: Record<string, unknown>) => {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-device-files-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  return dir;
};
const line5 = () => JSON.parse(readFileSync(join(shipped, 'qdc-sim-line-5.json'), 'utf8'));

describe(loadDeviceFiles.name, () => {
  it('reads the shipped devices', () => {
    expect(loadDeviceFiles(shipped).map((d) => [d.id, d.provider, d.num_qubits])).toEqual([
      ['qdc-sim-heavyhex-16', 'qdc-sim', 16],
      ['qdc-sim-ion-11', 'qdc-sim', 11],
      ['qdc-sim-line-5', 'qdc-sim', 5],
    ]);
  });

  it('answers an empty catalogue for a missing directory', () => {
    expect(loadDeviceFiles(join(tmpdir(), 'no-such-qdc-devices'))).toEqual([]);
  });

  it('names the file and the problem of a bad file', () => {
    expect(() => loadDeviceFiles(dirWith({ 'a.json': '{"id": ' }))).toThrow(/a\.json is not JSON/);
    expect(() => loadDeviceFiles(dirWith({ 'b.json': { ...line5(), pricing: { per_task_cents: -1, per_shot_cents: 0 } } }))).toThrow(
      /b\.json: pricing\.per_task_cents/,
    );
    expect(() => loadDeviceFiles(dirWith({ 'c.json': { ...line5(), coupling_map: [[0, 7]] } }))).toThrow(
      /c\.json: device file: coupling_map\[0\] must be two different qubits in 0\.\.4; got \[0,7\]/,
    );
    expect(() => loadDeviceFiles(dirWith({ 'd.json': { ...line5(), noise: undefined } }))).toThrow(/d\.json: .*noise/);
    expect(() => loadDeviceFiles(dirWith({ 'e.json': line5(), 'f.json': line5() }))).toThrow(/f\.json: device id 'qdc-sim-line-5' is used twice/);
  });
});
