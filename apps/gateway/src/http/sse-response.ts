import type { FastifyReply } from 'fastify';

/**
 * One `text/event-stream` answer (the HTML living standard's server-sent events): the reply is taken from
 * Fastify once the route has decided to stream, every event is `id:` + `data:` (JSON), `: keepalive`
 * comments go out while idle (proxies close silent connections), and a client that goes away ends it.
 * `onTick` runs at every keepalive check (a stream that also re-reads its source now and then).
 */
export class SseResponse {
  private keepalive?: NodeJS.Timeout;
  private lastWrite = Date.now();
  private finished = false;
  private readonly endHandlers: (() => void)[] = [];

  constructor(
    private readonly reply: FastifyReply,
    private readonly keepaliveMs: number,
    private readonly onTick: () => void = () => undefined,
  ) {}

  get ended(): boolean {
    return this.finished;
  }

  onEnd(handler: () => void): void {
    if (this.finished) handler();
    else this.endHandlers.push(handler);
  }

  open(): void {
    const { reply } = this;
    reply.hijack();
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    for (const name of ['x-request-id', 'x-content-type-options', 'content-security-policy']) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    reply.raw.writeHead(200, headers);
    reply.raw.flushHeaders?.();
    reply.raw.on('close', () => this.close());
    if (reply.raw.destroyed || reply.request.raw.socket?.destroyed) {
      this.close();
      return;
    }
    this.keepalive = setInterval(
      () => {
        if (Date.now() - this.lastWrite >= this.keepaliveMs) this.write(': keepalive\n\n');
        this.onTick();
      },
      Math.max(10, Math.floor(this.keepaliveMs / 2)),
    );
  }

  send(id: string | number, data: unknown): void {
    this.write(`id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(text: string): void {
    if (this.finished) return;
    this.lastWrite = Date.now();
    this.reply.raw.write(text);
  }

  close(): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.keepalive);
    for (const handler of this.endHandlers.splice(0)) handler();
    if (!this.reply.raw.writableEnded) this.reply.raw.end();
  }
}
