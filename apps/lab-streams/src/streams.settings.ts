import type { SettingGroup } from '#qdc/platform';
import { STREAMS_CONFIG_KEYS, loadStreamsConfig } from './streams.config.js';

/** The lab-streams service's settings for `.env.example` (npm run env:example): its schema's keys and defaults, one line of meaning each. */
export const streamsSettings = (): SettingGroup => ({
  title: 'live lab streams: the lab-streams service (apps/lab-streams/src/streams.config.ts)',
  schema: { keys: STREAMS_CONFIG_KEYS, defaults: loadStreamsConfig({}) },
  docs: {
    QDC_STREAM_MAX_IN_FLIGHT: 'frames of one stream analysed at once, unless the stream sets its own max_in_flight',
    QDC_STREAM_MAX_BACKLOG: "unanalysed frames a stream keeps; beyond it JetStream refuses the instrument's publish at once",
    QDC_STREAM_DEDUP_WINDOW_MS: 'JetStream duplicate window: a frame id (Nats-Msg-Id) seen within it is stored once, ms',
    QDC_STREAM_ACK_WAIT_MS: 'a frame whose consumer stopped answering for this long is delivered again, ms',
    QDC_STREAM_LEASE_MS: "a lab-streams replica's lease on a stream (renewed every third of it); another replica takes the stream over after it expires, ms",
    QDC_STREAM_JOBS_IN_FLIGHT: 'inference jobs a stream keeps running at once (frames arriving meanwhile share the next job)',
    QDC_STREAM_ANALYSIS_ATTEMPTS: "attempts of a frame's analysis before it is reported dropped",
  },
});
