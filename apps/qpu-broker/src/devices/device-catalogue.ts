import { Inject, Injectable, Logger } from '@nestjs/common';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { validateDeviceSpec } from '#qdc/circuits';
import { DeviceFile } from './device-file.js';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';

/** The devices of this deployment, read once at boot from the device files; a bad file stops the boot. */
@Injectable()
export class DeviceCatalogue {
  private readonly logger = new Logger(DeviceCatalogue.name);
  private readonly devices = new Map<string, DeviceFile>();

  constructor(@Inject(QPU_CONFIG) config: QpuConfig) {
    for (const device of loadDeviceFiles(config.QDC_QPU_DEVICES_DIR)) this.devices.set(device.id, device);
    this.logger.log(`${this.devices.size} device file(s) in ${config.QDC_QPU_DEVICES_DIR}: ${[...this.devices.keys()].join(', ') || 'none'}`);
  }

  all(): DeviceFile[] {
    return [...this.devices.values()];
  }

  get(id: string): DeviceFile | undefined {
    return this.devices.get(id);
  }
}

/** Parses every `*.json` in `dir` (sorted); throws naming the file and field of the first problem. */
export function loadDeviceFiles(dir: string): DeviceFile[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return [];
    throw error;
  }
  const seen = new Set<string>();
  return names.map((name) => {
    const path = join(dir, name);
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`device file ${path} is not JSON: ${(error as Error).message}`);
    }
    const parsed = DeviceFile.safeParse(raw);
    if (!parsed.success) throw new Error(`device file ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    const device = parsed.data;
    try {
      // The science library's checks too: native gate set, noise per qubit and per coupling edge.
      validateDeviceSpec(device);
    } catch (error) {
      throw new Error(`device file ${path}: ${(error as Error).message}`);
    }
    if (seen.has(device.id)) throw new Error(`device file ${path}: device id '${device.id}' is used twice`);
    seen.add(device.id);
    return device;
  });
}
