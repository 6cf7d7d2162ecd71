import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance } from 'fastify';

const CODA_TOOL_PATH = /^\/v0\/(coda\/)?(tools\/)?(transpile|simulate|to-openqasm3|estimate-resources|split-circuit|agents)(\?|$)/;
const CODA_QPU_PATH = /^\/v0\/(coda\/)?(qpus|qpus\/(status|estimate-cost|cancel)|qpu\/(submit|status|estimate-cost))(\?|$)/;

/**
 * Malformed or oversized JSON is rejected by Fastify before any Nest filter runs. For the coda
 * tool and QPU routes such errors are answered in the coda shape `{success: false, error, detail}` (400 → 422
 * with FastAPI's `detail` list, as for validation); every other route keeps Fastify's default handling (the error is passed on).
 */
@Injectable()
export class CodaBodyErrors implements OnApplicationBootstrap {
  constructor(private readonly host: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const fastify = this.host.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify?.setErrorHandler) return;
    fastify.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode ?? 500;
      if (!(CODA_TOOL_PATH.test(request.url) || CODA_QPU_PATH.test(request.url)) || status >= 500) return reply.send(error);
      if (status === 413) {
        const message = `Request body too large: ${error.message}`;
        return reply.status(413).send({ success: false, error: message, detail: message });
      }
      const message = `malformed request body: ${error.message}`;
      const detail = status === 400 ? [{ loc: ['body'], msg: message, type: 'json_invalid' }] : message;
      return reply.status(status === 400 ? 422 : status).send({ success: false, error: message, detail });
    });
  }
}
