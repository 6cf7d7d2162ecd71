import { Controller, Get, type OnApplicationBootstrap, type OnApplicationShutdown, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type OpenApiDocument, openApiDocument } from '#qdc/contracts';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Public } from '../auth/auth.decorators.js';
import { ApiError } from '../http/api-errors.js';

const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'swagger-ui-standalone-preset.js': 'application/javascript',
};
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>QDC API</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/v0/openapi.json', dom_id: '#ui' });</script></body></html>`;

/**
 * When the OpenAPI document is built if nobody asked for it first: off the boot (0.1–0.3 s of CPU, which in the
 * single-process mode would delay the first answer), once the other services of the process have had time to boot.
 */
const DOCUMENT_WARM_UP_AFTER_MS = 10_000;

/** The OpenAPI document (generated from libs/contracts/src/http once, on first use) and Swagger UI, served from the installed swagger-ui-dist (no CDN). */
@Controller()
@Public()
export class DocsController implements OnApplicationBootstrap, OnApplicationShutdown {
  private document?: OpenApiDocument;
  private warmUp?: NodeJS.Timeout;

  onApplicationBootstrap(): void {
    this.warmUp = setTimeout(() => this.openapi(), DOCUMENT_WARM_UP_AFTER_MS).unref();
  }

  onApplicationShutdown(): void {
    clearTimeout(this.warmUp);
  }

  @Get('v0/openapi.json')
  openapi(): OpenApiDocument {
    this.document ??= openApiDocument();
    return this.document;
  }

  @Get('docs')
  async docs(@Res() reply: FastifyReply) {
    await reply.header('content-type', 'text/html; charset=utf-8').send(PAGE);
  }

  @Get('docs/assets/:file')
  async asset(@Param('file') file: string, @Res() reply: FastifyReply) {
    const type = ASSETS[file];
    if (!type) throw new ApiError(404, 'Not Found');
    await reply
      .header('content-type', type)
      .header('cache-control', 'public, max-age=86400')
      .send(await readFile(join(SWAGGER_DIR, file)));
  }
}
