import { Inject, Injectable, Logger } from '@nestjs/common';
import type { DeviceFile } from '../devices/device-file.js';
import { DeviceCatalogue } from '../devices/device-catalogue.js';
import { QPU_BACKENDS, type QpuBackend } from './qpu-backend.js';

/**
 * Device → backend, by the device file's `provider`. A device whose provider has no enabled backend
 * (e.g. an IonQ device without QDC_IONQ_API_KEY) is not offered at all.
 */
@Injectable()
export class BackendRegistry {
  private readonly logger = new Logger(BackendRegistry.name);
  private readonly byProvider = new Map<string, QpuBackend>();

  constructor(
    @Inject(QPU_BACKENDS) backends: QpuBackend[],
    private readonly catalogue: DeviceCatalogue,
  ) {
    for (const backend of backends) {
      if (this.byProvider.has(backend.capabilities.provider)) throw new Error(`two backends for provider ${backend.capabilities.provider}`);
      this.byProvider.set(backend.capabilities.provider, backend);
    }
    const idle = catalogue.all().filter((d) => !this.byProvider.has(d.provider));
    if (idle.length) this.logger.warn(`not offered (no enabled backend for their provider): ${idle.map((d) => `${d.id} (${d.provider})`).join(', ')}`);
  }

  backendFor(device: DeviceFile): QpuBackend | undefined {
    return this.byProvider.get(device.provider);
  }

  /** The devices this broker can run, with their backends. */
  devices(): { device: DeviceFile; backend: QpuBackend }[] {
    return [
      ...this.catalogue.all().flatMap((device) => {
        const backend = this.byProvider.get(device.provider);
        return backend ? [{ device, backend }] : [];
      }),
      ...this.runtimeDevices(),
    ];
  }

  device(id: string): { device: DeviceFile; backend: QpuBackend } | undefined {
    const device = this.catalogue.get(id);
    const backend = device && this.byProvider.get(device.provider);
    if (device && backend) return { device, backend };
    return this.runtimeDevices().find((d) => d.device.id === id);
  }

  /** Devices added at run time by a backend (lab devices registered by their nodes). */
  private runtimeDevices(): { device: DeviceFile; backend: QpuBackend }[] {
    return [...this.byProvider.values()].flatMap((backend) => (backend.listDevices?.() ?? []).map((device) => ({ device, backend })));
  }
}
