import { z } from 'zod';
import { healthSubject, type ServiceName } from '../subjects.js';
import { defineRpc } from './define.js';
import { EmptyRequest } from './results.exchanges.js';

export const HealthResponse = z.object({ status: z.literal('ok') });

/** Every service answers its health subject (RpcServer binds it), so peers can wait for it before taking work. */
export const healthRpc = (service: ServiceName) => defineRpc({ subject: healthSubject(service), request: EmptyRequest, response: HealthResponse });
