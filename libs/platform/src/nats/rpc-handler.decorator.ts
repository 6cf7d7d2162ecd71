import { SetMetadata } from '@nestjs/common';
import type { ZodType } from 'zod';

export const RPC_HANDLER = Symbol('RPC_HANDLER');

export interface RpcHandlerMetadata {
  subject: string;
  schema?: ZodType;
  /** Events are fanned out to every replica (no queue group) and get no reply. */
  event?: boolean;
}

/** Marks a provider method as the handler of a NATS subject; the payload is parsed with `schema`. */
export const RpcHandler = (subject: string, schema?: ZodType): MethodDecorator => SetMetadata(RPC_HANDLER, { subject, schema } satisfies RpcHandlerMetadata);

export const EventHandler = (subject: string, schema?: ZodType): MethodDecorator =>
  SetMetadata(RPC_HANDLER, { subject, schema, event: true } satisfies RpcHandlerMetadata);

/** Second argument of every handler. */
export interface RpcContext {
  requestId: string;
}
