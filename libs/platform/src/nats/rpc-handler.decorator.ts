import { SetMetadata } from '@nestjs/common';
import type { EventContract, EventPayloadOf, RpcContract, RpcParsedOf, RpcResponseOf } from '#qdc/contracts';

export const RPC_HANDLER = Symbol('RPC_HANDLER');

export type RpcHandlerMetadata = { contract: RpcContract } | { contract: EventContract };

/** Second argument of every handler. */
export interface RpcContext {
  requestId: string;
}

type RpcMethodDecorator<C extends RpcContract> = <M extends (request: RpcParsedOf<C>, context: RpcContext) => RpcResponseOf<C> | Promise<RpcResponseOf<C>>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

type EventMethodDecorator<C extends EventContract> = <M extends (payload: EventPayloadOf<C>) => void | Promise<void>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

/**
 * Marks a provider method as the handler of an exchange (libs/contracts `defineRpc`): RpcServer subscribes it, parses
 * each request with the contract's schema and replies with what it returns. The method's parameter and return types
 * are checked against the contract at compile time.
 */
export const RpcHandler = <C extends RpcContract>(contract: C): RpcMethodDecorator<C> => SetMetadata(RPC_HANDLER, { contract } satisfies RpcHandlerMetadata);

/** Marks a provider method as the handler of an event (`defineEvent`): every replica gets it (no queue group), no reply. */
export const EventHandler = <C extends EventContract>(contract: C): EventMethodDecorator<C> =>
  SetMetadata(RPC_HANDLER, { contract } satisfies RpcHandlerMetadata);
