import { Module } from '@nestjs/common';
import { StreamSlots } from './stream-slots.js';

/** The per-key bound on open event streams (QDC_SSE_STREAMS_PER_KEY), shared by every SSE route. */
@Module({ providers: [StreamSlots], exports: [StreamSlots] })
export class StreamSlotsModule {}
