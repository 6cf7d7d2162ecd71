export {
  createClient,
  type AssistantStream,
  type AssistantStreamEvent,
  type ClientOptions,
  type ModelBatchRunRequest,
  type ModelRunRequest,
  type QdcClient,
  type QpuJobEventStream,
  type QpuWaitOptions,
} from './qdc.client.js';
export { EventStream, type EventStreamOptions, type EventStreamRules, type StreamEvent } from './event.stream.js';
export { QdcApiError, QdcStreamInterruptedError, QdcTransportError } from './qdc-api.error.js';
export type { CallOptions, FetchLike } from './http.transport.js';
export { toUploadFile, type ModelInput } from './model-input.js';
export { encodeNpy, isNpy, type NestedNumbers, type NpyEncodable, type NumericTypedArray, type ShapedArray } from './npy.encode.js';
export { SseParser, readSse, type SseMessage } from './sse.parser.js';
export type * from './wire.types.js';
