import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { withRequestId } from './request-context.js';

/** Runs every HTTP handler inside its request's context (see withRequestId): the id Fastify gave the request. */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const { id } = context.switchToHttp().getRequest<{ id: string }>();
    return new Observable((subscriber) => withRequestId(id, () => next.handle().subscribe(subscriber)));
  }
}
