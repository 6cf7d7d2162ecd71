import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RpcError, type Principal } from '#qdc/contracts';
import { Caller, RequireScope } from '../auth/auth.decorators.js';
import { CodaExceptionFilter } from '../coda/coda-exception.filter.js';
import { QpuJobEventsService } from './qpu-job-events.service.js';
import { QpusService } from './qpus.service.js';

/** Canonical `/v0/coda/<path>`, the same under the legacy coda root `/v0`, and the legacy `/qpu/*` names (SPEC §4). */
const paths = (...names: string[]) => names.flatMap((name) => [`v0/coda/${name}`, `v0/${name}`]);

/** QPU devices and jobs (SPEC §4/§6); answers `{success, …}`, failures `{success: false, error}`. */
@Controller()
@RequireScope('coda')
@UseFilters(CodaExceptionFilter)
export class QpusController {
  constructor(
    private readonly qpus: QpusService,
    private readonly jobEvents: QpuJobEventsService,
  ) {}

  @Get(paths('qpus', 'qpu/devices'))
  devices(@Req() request: FastifyRequest) {
    return this.qpus.devices(request.id);
  }

  @Post(paths('qpus', 'qpu/submit'))
  @HttpCode(200)
  submit(@Caller() caller: Principal, @Body() body: unknown, @Headers('idempotency-key') key: string | undefined, @Req() request: FastifyRequest) {
    return this.qpus.submit(caller, body, key, request.id);
  }

  @Post(paths('qpus/status', 'qpu/status'))
  @HttpCode(200)
  status(@Caller() caller: Principal, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.qpus.status(caller, body, request.id);
  }

  @Post(paths('qpus/estimate-cost', 'qpu/estimate-cost'))
  @HttpCode(200)
  estimate(@Caller() caller: Principal, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.qpus.estimate(caller, body, request.id);
  }

  @Post(paths('qpus/cancel'))
  @HttpCode(200)
  cancel(@Caller() caller: Principal, @Body() body: unknown, @Req() request: FastifyRequest) {
    return this.qpus.cancel(caller, body, request.id);
  }

  @Get(paths('qpus/jobs'))
  jobs(
    @Caller() caller: Principal,
    @Req() request: FastifyRequest,
    @Query('skip') skip?: string,
    @Query('limit') limit?: string,
    @Query('status') status?: string,
    @Query('device') device?: string,
  ) {
    return this.qpus.jobs(
      caller,
      {
        skip: intParam(skip, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
        limit: intParam(limit, 'limit', 100, 1, 1000),
        status: status || undefined,
        device: device || undefined,
      },
      request.id,
    );
  }

  /** A job's state changes, then its results, as server-sent events (SPEC §7). */
  @Get(paths('qpus/jobs/:job_id/events'))
  events(
    @Caller() caller: Principal,
    @Param('job_id') jobId: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.jobEvents.stream(caller, jobId, lastEventId, request.id, reply);
  }
}

/** An optional integer query parameter within bounds; otherwise 422 in the coda shape. */
function intParam(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new RpcError('invalid_input', `${name} must be an integer; got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw new RpcError('invalid_input', `${name} must be between ${min} and ${max}; got ${value}`);
  return value;
}
