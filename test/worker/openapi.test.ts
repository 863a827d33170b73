import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { inspectRoutes } from 'hono/dev';
import { describe, expect, it } from 'vitest';
import app from '../../worker/index.ts';
import type { openApiDocument } from '../../worker/lib/openapi.ts';
import { callWith, jsonOf, send } from './helpers.ts';
// The OpenAPI 3.1 schema as @seriousme/openapi-schema-validator ships it; its Validator reads the file
// from disk at run time, which workerd cannot, so the schema is imported and compiled here as it does.
import oas31 from '../../node_modules/@seriousme/openapi-schema-validator/schemas/v3.1/schema.json';

/** What GET /api/openapi.json answers: the document as the worker generates it (the route is outside the typed client's /api). */
type Document = Awaited<ReturnType<typeof openApiDocument>>;

/** Hono's `:id` (and `:token{regex}`) as OpenAPI's `{id}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)(\{[^/]*\})?/g, '{$1}');

/** `METHOD /path` of every route the app answers under /api, read from its own route table. */
function servedRoutes(): string[] {
  const keys = new Set<string>();
  for (const r of inspectRoutes(app)) {
    if (r.method === 'ALL' || !r.path.startsWith('/api/')) continue;
    keys.add(`${r.method} ${openApiPath(r.path)}`);
  }
  return [...keys].sort();
}

const documented = (doc: Document) =>
  Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, public and cacheable briefly', async () => {
    const res = await send('GET', '/api/openapi.json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const doc = await jsonOf<Document>(res, 200);
    expect(doc.openapi).toMatch(/^3\.1\./);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('media-range', true);
    const valid = ajv.validate(oas31, doc);
    expect(ajv.errors ?? [], JSON.stringify(ajv.errors)?.slice(0, 2000)).toEqual([]);
    expect(valid).toBe(true);
    // Every schema in it compiles, its references resolved (what a client generator does first).
    ajv.addSchema(doc, 'openapi');
    for (const [path, item] of Object.entries(doc.paths))
      for (const method of Object.keys(item))
        expect(
          () => ajv.getSchema(`openapi#/paths/${path.replaceAll('/', '~1')}/${method}`),
          `${method} ${path}`,
        ).not.toThrow();
  });

  it('has every route the app serves, with the same method and path, and nothing else', async () => {
    const doc = await jsonOf<Document>(await send('GET', '/api/openapi.json'), 200);
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(50);
    const inDoc = new Set(documented(doc));
    const missing = served.filter((r) => !inDoc.has(r));
    expect(missing, 'routes without doc(...) (worker/lib/openapi.ts): add one to each').toEqual([]);
    expect(documented(doc)).toEqual(served);
  });

  it('gives each route a summary, its resource as a tag and its answers', async () => {
    const doc = await jsonOf<Document>(await send('GET', '/api/openapi.json'), 200);
    const lacking = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(
          // A path's own fields (a summary, parameters) are no operation: listed as lacking too.
          ([, op]) =>
            typeof op !== 'object' ||
            Array.isArray(op) ||
            !op.summary ||
            op.tags?.length !== 1 ||
            !Object.keys(op.responses ?? {}).some((s) => s.startsWith('2')),
        )
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(lacking).toEqual([]);
  });
});

describe('GET /api/reference', () => {
  it('is not served outside a local run', async () => {
    const res = await send('GET', '/api/reference');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('is served in a local run, with a policy of its own that lets its page load', async () => {
    const res = await callWith({ API_REFERENCE: '1' })('GET', '/api/reference');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('/api/openapi.json');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('https://cdn.jsdelivr.net');
    expect(csp).toContain("connect-src 'self'");
  });
});
