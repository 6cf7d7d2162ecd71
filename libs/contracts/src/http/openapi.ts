import { z } from 'zod';
import { HTTP_ROUTES, type HttpResponseSpec, type HttpRouteSpec } from './routes.js';

/**
 * The OpenAPI 3.1 document, generated from the route table (routes.ts) with zod's own JSON Schema conversion
 * (`z.toJSONSchema`, draft 2020-12, which OpenAPI 3.1 uses as is). A schema with `.meta({id})` becomes a component
 * (`#/components/schemas/<id>`) wherever it appears; request bodies, parameters and headers are converted as input
 * (defaults are not required), answers as output (every field listed, no others: `additionalProperties: false`).
 */
export type JsonSchema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
}

type Io = 'input' | 'output';

/**
 * Collects components while converting: a `$defs` entry of one conversion becomes a shared component. Each schema is
 * converted once per direction (most answers repeat: the error bodies are on every route, 244 of 289).
 */
class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly converted = new Map<z.ZodType, Partial<Record<Io, JsonSchema>>>();

  convert(schema: z.ZodType, io: Io): JsonSchema {
    const done = this.converted.get(schema) ?? {};
    this.converted.set(schema, done);
    done[io] ??= this.convertOnce(schema, io);
    return done[io];
  }

  private convertOnce(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      // z.custom (uploaded files) carries its JSON Schema in .meta(): {type: 'string', format: 'binary'}.
      unrepresentable: 'any',
      override: ({ jsonSchema }) => {
        // z.number().int() bounds itself to the safe integers; that says nothing to a reader.
        if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
        if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
      },
    }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    // The same id converted as input and as output can differ (defaults are required only in answers): the second
    // one is named `<id>Input` / `<id>Output`.
    const names = new Map(Object.keys(defs).map((id) => [id, id]));
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) =>
          k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
            ? [k, `#/components/schemas/${names.get(v.slice('#/$defs/'.length))}`]
            : [k, rewrite(v)],
        ),
      );
    };
    const clashes = () => [...names].filter(([id, name]) => this.schemas[name] && JSON.stringify(this.schemas[name]) !== JSON.stringify(rewrite(defs[id])));
    for (const [id] of clashes()) names.set(id, `${id}${io === 'input' ? 'Input' : 'Output'}`);
    const left = clashes();
    if (left.length) throw new Error(`OpenAPI: different schemas carry the id ${left.map(([id]) => `'${id}'`).join(', ')}`);
    for (const [id, name] of names) this.schemas[name] = rewrite(defs[id]) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }
}

/** Path, query and header parameters from an object schema (converted as input: defaults are not required). */
function parameters(components: Components, where: 'path' | 'query' | 'header', schema: z.ZodObject | undefined): JsonSchema[] {
  if (!schema) return [];
  const json = components.convert(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function response(components: Components, spec: HttpResponseSpec): JsonSchema {
  const headers = spec.headers
    ? { headers: Object.fromEntries(Object.entries(spec.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
    : {};
  if (!spec.schema) return { description: spec.description, ...headers };
  return {
    description: spec.description,
    ...headers,
    content: { [spec.contentType ?? 'application/json']: { schema: components.convert(spec.schema, 'output') } },
  };
}

function operation(components: Components, route: HttpRouteSpec): JsonSchema {
  const scopeNote =
    route.scope === null
      ? 'No API key needed.'
      : route.scope === 'any'
        ? 'Needs an API key (any scope).'
        : `Needs an API key with the \`${route.scope}\` scope.`;
  return {
    operationId: route.id,
    summary: route.summary,
    description: route.description ? `${route.description}\n\n${scopeNote}` : scopeNote,
    tags: [route.tag],
    ...(route.deprecated ? { deprecated: true } : {}),
    security: route.scope ? [{ bearer: [] }] : [],
    'x-qdc-scope': route.scope,
    parameters: [
      ...parameters(components, 'path', route.params),
      ...parameters(components, 'query', route.query),
      ...parameters(components, 'header', route.headers),
    ],
    ...(route.body
      ? { requestBody: { required: true, content: { [route.body.contentType]: { schema: components.convert(route.body.schema, 'input') } } } }
      : {}),
    responses: Object.fromEntries(Object.entries(route.responses).map(([status, spec]) => [status, response(components, spec)])),
  };
}

/** The document of `routes` (default: the whole API). Every path of a route gets the operation; aliases name their canonical path. */
export function openApiDocument(routes: readonly HttpRouteSpec[] = HTTP_ROUTES): OpenApiDocument {
  const components = new Components();
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const op = operation(components, route);
    const [canonical, ...aliases] = route.paths;
    const method = route.method.toLowerCase();
    for (const path of [canonical!, ...aliases]) {
      paths[path] ??= {};
      if (paths[path][method]) throw new Error(`OpenAPI: ${route.method} ${path} is in the route table twice`);
      paths[path][method] = path === canonical ? op : { ...op, operationId: undefined, 'x-qdc-alias-of': canonical };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'QDC — quantum device characterization',
      version: '0.1.0',
      description:
        'Self-hostable, wire-compatible with the Conductor Quantum control and coda APIs. Authenticate with `Authorization: Bearer coda_…`. Generated from the zod schemas of libs/contracts/src/http (the gateway validates with the same objects).',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: components.schemas },
  };
}
