import { AsyncLocalStorage } from 'node:async_hooks';
import type { INestApplicationContext } from '@nestjs/common';
import type { ReadinessCheck } from '../health/probe-server.js';

/**
 * The single-process mode (apps/all-in-one): every service's Nest application in one Node process. The services'
 * entry functions check `inSingleProcess()` and then leave what is per process (logger, metrics label, signal
 * handlers, probe server) to the host, which registers them here for its one probe server and its shutdown.
 */
let single = false;
const serviceScope = new AsyncLocalStorage<string>();

export interface HostedService {
  name: string;
  app: INestApplicationContext;
  /** The service's readiness checks (the gateway has none here: its /readyz is on its own HTTP port). */
  readiness?: ReadinessCheck;
}

const hosted: HostedService[] = [];

/** Switches this process to the single-process mode (before any service boots). */
export function enterSingleProcess(): void {
  single = true;
}

export function inSingleProcess(): boolean {
  return single;
}

/**
 * Runs `boot` as service `name`: what it starts (NATS subscriptions, queue workers, the HTTP server) keeps the name
 * in its async context, so that its log lines say which service wrote them.
 */
export function asService<T>(name: string, boot: () => T): T {
  return serviceScope.run(name, boot);
}

/** The service whose work is running (single-process mode), if any. */
export function currentService(): string | undefined {
  return serviceScope.getStore();
}

export function hostService(service: HostedService): void {
  hosted.push(service);
}

/** The services booted in this process, in the order they finished booting. */
export function hostedServices(): readonly HostedService[] {
  return hosted;
}
