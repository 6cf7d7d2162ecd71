import type { z } from 'zod';

/**
 * Every exchange between QDC's processes is declared once, as a value: its wire name and its zod schemas. The sender
 * takes its payload type from the value (`RpcClient.call(contract, request)`), the receiver is bound to the same value
 * (`@RpcHandler(contract)`, `JobWorkerHost`) and parses what arrives with its schema, so neither side asserts a type.
 */

/** A request/reply over NATS: `subject` (without the namespace, see subjects.ts), the request and the reply. */
export interface RpcContract<Request extends z.ZodType = z.ZodType, Response extends z.ZodType = z.ZodType> {
  readonly kind: 'rpc';
  readonly subject: string;
  readonly request: Request;
  readonly response: Response;
}

/** A published message with no reply (fanned out to every subscriber). */
export interface EventContract<Payload extends z.ZodType = z.ZodType> {
  readonly kind: 'event';
  readonly subject: string;
  readonly payload: Payload;
}

/**
 * A BullMQ job: its queue (a queue family for the per-device queues, see QpuDeviceJobs), its name, its data and the
 * `response` of its outcome (JobOutcome: `{ok: true, response} | {ok: false, error}`).
 */
export interface JobContract<Data extends z.ZodType = z.ZodType, Outcome extends z.ZodType = z.ZodType> {
  readonly kind: 'job';
  readonly queue: string;
  readonly name: string;
  readonly data: Data;
  readonly outcome: Outcome;
}

export const defineRpc = <Request extends z.ZodType, Response extends z.ZodType>(contract: {
  subject: string;
  request: Request;
  response: Response;
}): RpcContract<Request, Response> => ({ kind: 'rpc', ...contract });

export const defineEvent = <Payload extends z.ZodType>(contract: { subject: string; payload: Payload }): EventContract<Payload> => ({
  kind: 'event',
  ...contract,
});

export const defineJob = <Data extends z.ZodType, Outcome extends z.ZodType>(contract: {
  queue: string;
  name: string;
  data: Data;
  outcome: Outcome;
}): JobContract<Data, Outcome> => ({ kind: 'job', ...contract });

/** What a caller sends (before the receiver's parse: defaults may be left out). */
export type RpcRequestOf<C extends RpcContract> = z.input<C['request']>;
/** What a handler receives: the request as parsed by the contract's schema. */
export type RpcParsedOf<C extends RpcContract> = z.output<C['request']>;
/** What a handler answers and a caller receives. */
export type RpcResponseOf<C extends RpcContract> = z.output<C['response']>;
export type EventPayloadOf<C extends EventContract> = z.output<C['payload']>;
export type JobDataOf<C extends JobContract> = z.output<C['data']>;
export type JobResponseOf<C extends JobContract> = z.output<C['outcome']>;
