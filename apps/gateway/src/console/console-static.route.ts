import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { acceptsGzip } from '../http/accept-encoding.js';

/**
 * The console's pages (client-side routes of apps/console): each answers index.html, so a page can be loaded,
 * bookmarked and reloaded directly. Everything else the console needs is under /assets/.
 */
export const CONSOLE_PAGES = ['/', '/models', '/models/*', '/results', '/results/*', '/qpus', '/assistant', '/lab-streams', '/lab-streams/*', '/admin'];
export const CONSOLE_ASSETS = '/assets/*';

/**
 * The console loads only its own files and talks only to this origin; plots are `data:` images (SPEC §3).
 * No inline script or style is allowed, so an injected `<script>` does nothing.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};
/** Built files larger than this are not served (the console is a few hundred kB; a stray file is not). */
const MAX_FILE_BYTES = 8 * 1024 * 1024;

interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
}

/** `dist/console` next to the built gateway (dist/apps/gateway/src/console → dist/console). */
export const defaultConsoleDir = (): string => resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../console');

/**
 * Serves the web console's static files (apps/console, built into dist/console by `npm run build`) without a key
 * (SPEC §2): index.html with `Cache-Control: no-cache` (an ETag revalidates it), the content-hashed files under
 * /assets/ as immutable for a year, gzipped once at start for clients that accept it, under CONSOLE_CSP. The files
 * are read once at start: the console is a few hundred kB, and a request never touches the disk.
 */
@Injectable()
export class ConsoleStaticRoute implements OnModuleInit {
  private readonly logger = new Logger('Console');
  private readonly files = new Map<string, StaticFile>();

  constructor(
    private readonly host: HttpAdapterHost,
    @Inject(QDC_CONFIG) private readonly config: Pick<QdcConfig, 'QDC_CONSOLE_DIR'>,
  ) {}

  onModuleInit(): void {
    const dir = this.config.QDC_CONSOLE_DIR ?? defaultConsoleDir();
    this.load(dir);
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    const page = (request: FastifyRequest, reply: FastifyReply) => this.send(request, reply, '/index.html', 'no-cache');
    for (const url of CONSOLE_PAGES) fastify.get(url, page);
    fastify.get(CONSOLE_ASSETS, (request, reply) => this.send(request, reply, request.url.split('?')[0]!, 'public, max-age=31536000, immutable'));
    if (this.files.has('/index.html')) this.logger.log(`web console at / (${this.files.size} files from ${dir})`);
    else this.logger.warn(`web console not built (no ${join(dir, 'index.html')}): run npm run build; / answers 404 until then`);
  }

  private load(dir: string): void {
    if (!existsSync(dir)) return;
    const walk = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        const stat = statSync(path);
        if (stat.isDirectory()) walk(path);
        else if (stat.size <= MAX_FILE_BYTES) {
          const body = readFileSync(path);
          const type = TYPES[extname(name)] ?? 'application/octet-stream';
          const compressible = type.startsWith('text/') || type.includes('json') || type.includes('svg');
          this.files.set(`/${relative(dir, path).split('\\').join('/')}`, {
            body,
            gzip: compressible && body.length > 1024 ? gzipSync(body, { level: 9 }) : null,
            type,
            etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
          });
        }
      }
    };
    walk(dir);
  }

  private send(request: FastifyRequest, reply: FastifyReply, path: string, cacheControl: string): FastifyReply {
    const file = this.files.get(path);
    if (!file) return reply.status(404).header('content-type', 'application/json; charset=utf-8').send({ detail: 'Not Found' });
    reply.header('content-security-policy', CONSOLE_CSP).header('cache-control', cacheControl).header('etag', file.etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
    reply.header('content-type', file.type);
    if (file.gzip && acceptsGzip(request.headers['accept-encoding'])) return reply.header('content-encoding', 'gzip').send(file.gzip);
    return reply.send(file.body);
  }
}
