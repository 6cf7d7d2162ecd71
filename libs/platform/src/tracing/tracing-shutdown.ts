import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { shutdownTracing } from './tracing.js';

/** Exports the last spans when the service stops (after every module's onModuleDestroy: drained queues and NATS). */
@Injectable()
export class TracingShutdown implements OnApplicationShutdown {
  onApplicationShutdown(): Promise<void> {
    return shutdownTracing();
  }
}
