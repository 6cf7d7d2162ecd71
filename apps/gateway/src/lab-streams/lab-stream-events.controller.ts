import { Controller, Get, Headers, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '#qdc/contracts';
import { Caller } from '../auth/auth.decorators.js';
import { LabStreamEventsService } from './lab-stream-events.service.js';

/** A live instrument stream's events for its lab's owner or an admin key (SPEC §7); any valid key may ask. */
@Controller('v0/lab-streams')
export class LabStreamEventsController {
  constructor(private readonly events: LabStreamEventsService) {}

  @Get(':lab/:name/events')
  stream(
    @Caller() caller: Principal,
    @Param('lab') lab: string,
    @Param('name') name: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.events.stream(caller, lab, name, lastEventId, request.id, reply);
  }
}
