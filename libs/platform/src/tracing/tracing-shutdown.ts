import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { inSingleProcess } from '../service/single-process.js';
import { shutdownTracing } from './tracing.js';

/**
 * Exports the last spans when the service stops (after every module's onModuleDestroy: drained queues and NATS). In
 * the single-process mode the tracer is the process's: the host stops it after the last service (apps/all-in-one).
 */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    if (!inSingleProcess()) await shutdownTracing();
  }
}
