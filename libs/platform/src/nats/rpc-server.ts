import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { RpcError, healthRpc, type ServiceName } from '#qdc/contracts';
import { SERVICE_NAME } from '../config/config.module.js';
import { withRequestContext, withRequestId } from '../logging/request-context.js';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../prisma/database-errors.js';
import { NatsConnection } from './nats-connection.js';
import { RpcDispatcher } from './rpc-dispatcher.js';
import { RPC_HANDLER, type RpcHandlerMetadata } from './rpc-handler.decorator.js';

/**
 * Finds every @RpcHandler/@EventHandler method and subscribes it to its contract's subject, with the service name as
 * queue group so replicas share requests (events reach every replica). The request is parsed with the contract's
 * schema here, at the receiving edge; replies use the {ok, data | error} envelope. Startup fails on a subject with two
 * handlers.
 */
@Injectable()
export class RpcServer implements OnApplicationBootstrap {
  private readonly logger = new Logger(RpcServer.name);
  private readonly subjects = new Set<string>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly nats: NatsConnection,
    private readonly dispatcher: RpcDispatcher,
    @Inject(SERVICE_NAME) private readonly serviceName: string,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    // Every service answers its health subject, so peers can wait for it before taking work.
    this.bind({ contract: healthRpc(this.serviceName as ServiceName) }, () => ({ status: 'ok' }), 'health');
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance);
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = instance[methodName] as (...args: unknown[]) => unknown;
        const meta = this.reflector.get<RpcHandlerMetadata | undefined>(RPC_HANDLER, method);
        if (meta) this.bind(meta, method.bind(instance), `${wrapper.name}.${methodName}`);
      }
    }
  }

  private bind({ contract }: RpcHandlerMetadata, handler: (...args: unknown[]) => unknown, name: string): void {
    const event = contract.kind === 'event';
    const subject = contract.subject;
    const schema = event ? contract.payload : contract.request;
    const key = `${contract.kind}:${subject}`;
    if (this.subjects.has(key)) throw new Error(`two handlers for ${subject} (second: ${name})`);
    this.subjects.add(key);
    this.dispatcher.subscribe(
      subject,
      async ({ payload, requestId, deadline }, reply) => {
        try {
          if (deadline !== undefined && Date.now() > deadline) {
            // The caller has answered its own client already (a timeout): work started now would answer no one.
            withRequestId(requestId, () =>
              this.logger.warn(`${name}: not handled, the caller stopped waiting ${Date.now() - deadline} ms ago (this process was busy or paused)`),
            );
            throw new RpcError('timeout', `${subject} was not handled: the caller stopped waiting at ${new Date(deadline).toISOString()}`);
          }
          const parsed = schema.safeParse(payload);
          if (!parsed.success) {
            throw new RpcError('internal', `message on ${subject} does not match its contract`, parsed.error.issues);
          }
          const data = await withRequestContext({ requestId, deadline }, () => handler(parsed.data, { requestId }));
          await reply({ ok: true, data: data ?? null });
        } catch (error) {
          if (error instanceof RpcError) {
            if (error.code === 'internal') withRequestId(requestId, () => this.logger.error(`${name}: ${error.message}`));
            await reply({ ok: false, error: error.toBody() });
            return;
          }
          const errorId = randomUUID();
          if (isDatabaseUnavailable(error)) {
            // A Postgres restart or failover: the caller's 503 + Retry-After, not a 500.
            withRequestId(requestId, () => this.logger.warn(`error_id=${errorId} ${name}: database unavailable: ${(error as Error)?.message ?? error}`));
            await reply({ ok: false, error: { code: 'unavailable', message: DATABASE_UNAVAILABLE_MESSAGE, details: { error_id: errorId } } });
            return;
          }
          withRequestId(requestId, () => this.logger.error(`error_id=${errorId} ${name}: ${(error as Error)?.stack ?? error}`));
          await reply({ ok: false, error: { code: 'internal', message: 'internal error', details: { error_id: errorId } } });
        }
      },
      { queue: event ? undefined : this.serviceName },
    );
    this.logger.log(`${contract.kind} ${this.nats.subject(subject)} → ${name}`);
  }
}
