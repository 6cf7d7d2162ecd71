import type { INestApplicationContext } from '@nestjs/common';
import { FrameAnalysisProducer, NatsConnection, bootstrapService } from '#qdc/platform';
import { LabStreamsModule } from './lab-streams.module.js';

/** The lab-streams process: consumes live instrument streams and queues their frames on the inference queue (analyse-frame jobs). */
export async function startLabStreams(): Promise<INestApplicationContext> {
  return bootstrapService('lab-streams', LabStreamsModule, {
    defaultProbePort: 9131,
    readiness: (app) => async () => ({
      nats: app.get(NatsConnection).isConnected,
      redis: await app.get(FrameAnalysisProducer).isRedisReady(),
    }),
  });
}
