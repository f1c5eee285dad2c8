import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as agent from '../../server/contract/agent';
import * as alerts from '../../server/contract/alerts';
import * as aliases from '../../server/contract/aliases';
import * as analytics from '../../server/contract/analytics';
import { apiRoutes } from '../../server/contract/api-routes';
import * as auth from '../../server/contract/auth';
import * as channels from '../../server/contract/channels';
import * as checks from '../../server/contract/checks';
import * as history from '../../server/contract/command-history';
import * as common from '../../server/contract/common';
import * as incident from '../../server/contract/incident-report';
import { openApiPath } from '../../server/contract/openapi';
import * as ops from '../../server/contract/ops';
import * as routing from '../../server/contract/routing';
import * as servers from '../../server/contract/servers';
import * as tokens from '../../server/contract/tokens';
import * as users from '../../server/contract/users';
import { discoverSchemas, startFuzzApp } from '../fuzz/fuzz-app';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * /api/openapi.json (issue 13) is generated from the contract (server/contract/api-routes.ts and
 * its zod schemas); this holds that list to Fastify's own route table both ways.
 */
const [pglite] = await backends();

describe('GET /api/openapi.json', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await startTestApp(pglite!);
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = JSON.parse(res.body);
  }, 120_000);
  afterAll(async () => t.close());

  it('lists every route Fastify serves, and nothing it does not', () => {
    // HEAD routes are Fastify's automatic twins of GET routes.
    const served = t.app.registeredRoutes.filter((r) => r.method !== 'HEAD').map((r) => `${r.method} ${openApiPath(r.url).path}`);
    const described = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served.length).toBeGreaterThan(90);
    expect(described.filter((r) => !served.includes(r)), 'described but not served').toEqual([]);
    expect(served.filter((r) => !described.includes(r)), 'served but not described').toEqual([]);
    expect(described).toHaveLength(new Set(served).size);
  });

  it('is OpenAPI 3.1 with request and answer schemas from the zod contract', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+/);
    const create = doc.paths['/api/users'].post;
    expect(create.requestBody.content['application/json'].schema.properties.role.enum).toEqual(['admin', 'sysadmin', 'user']);
    expect(create.responses['201'].content['application/json'].schema.properties.result.properties.username).toMatchObject({ type: 'string' });
    const patch = doc.paths['/api/alerts/{id}'].patch;
    expect(patch.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(Object.keys(patch.requestBody.content['application/json'].schema.properties)).toEqual(expect.arrayContaining(['status', 'log']));
    expect(doc.paths['/api/analytics/top-cpu-usage-servers'].get.parameters.map((p: any) => p.name)).toContain('percentage');
    // Token callers read how to authenticate; public routes need nothing.
    expect(doc.components.securitySchemes.personalToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    // Each route of the contract is one operation: none was described twice.
    expect(apiRoutes.length).toBe(Object.values(doc.paths as Record<string, object>).reduce((n, ops) => n + Object.keys(ops).length, 0));
  });

  it('names the credential of each route that checks its own, and describes every scheme it names', () => {
    const targets = doc.paths['/api/prometheus/targets'].get;
    expect(targets.security).toEqual([{ prometheusSdToken: [] }]);
    expect(targets.description).toMatch(/PROMETHEUS_SD_TOKEN/);
    expect(doc.components.securitySchemes.prometheusSdToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The installer's key: validate_api_key takes it in its path (SPEC), the report as a header.
    const validate = doc.paths['/api/cli/validate_api_key/{key}'].get;
    const installed = doc.paths['/api/cli/agent-installed'].post;
    expect(validate.security).toEqual([{ agentKey: [] }]);
    expect(installed.security).toEqual([{ agentKey: [] }]);
    expect(validate.description).toBe("The agent installer's key, sent in the path as {key}; no header is read.");
    expect(installed.description).toBe("The agent installer's key, sent as `Authorization: Bearer <key>` (or `x-api-key: <key>`).");
    expect(doc.components.securitySchemes.agentKey.description).toBe(
      "An agent installer's key. GET /api/cli/validate_api_key/{key}: sent in the path as {key}; no header is read. POST /api/cli/agent-installed: sent as `Authorization: Bearer <key>` (or `x-api-key: <key>`).",
    );
    const named = Object.values(doc.paths as Record<string, Record<string, { security?: Record<string, unknown>[] }>>).flatMap((ops) => Object.values(ops).flatMap((op) => (op.security ?? []).flatMap((s) => Object.keys(s))));
    expect(named.filter((name) => !doc.components.securitySchemes[name])).toEqual([]);
  });

  it('describes as open to anyone only routes that answer a caller with no credentials', async () => {
    const open = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[]; description: string }>>).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([method, op]) => ({ method: method.toUpperCase() as 'GET' | 'POST', url: path.replace(/\{[^}]+\}/g, 'x'), op })),
    );
    expect(open.length).toBeGreaterThan(5);
    const refused: string[] = [];
    for (const route of open) {
      expect(route.op.description, `${route.method} ${route.url}`).toMatch(/^Anyone/);
      const res = await t.call(route.method, route.url, route.method === 'GET' ? {} : { body: {} });
      if (res.status === 401 || res.status === 403) refused.push(`${route.method} ${route.url} → ${res.status} ${res.body?.message ?? ''}`);
    }
    expect(refused).toEqual([]);
  });

  it('answers without a session', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(anon.statusCode).toBe(200);
    expect(JSON.parse(anon.body)).toEqual(doc);
  });
});

describe("the contract's request schemas", () => {
  it('are the ones the routes parse with', async () => {
    const f = await startFuzzApp(pglite!);
    try {
      // Every exported schema and every schema the route list names is watched: the first one a
      // route's handler parses an empty request with is what it reads.
      const named = Object.fromEntries(apiRoutes.flatMap((r, i) => [r.body, r.query, ...Object.values(r.params ?? {})].filter((s) => !!s).map((s) => [`route${i}`, s])));
      // Routes that declare input, and every route that takes a body (HEAD twins and plain reads skipped: time).
      const takesInput = new Set(apiRoutes.filter((r) => r.body || r.query || r.params || r.method !== 'GET').map((r) => `${r.method} ${r.path}`));
      const found = await discoverSchemas({ ...f, routes: f.routes.filter((r) => takesInput.has(`${r.method} ${r.url}`)) }, [agent, alerts, aliases, analytics, auth, channels, checks, history, common, incident, ops, routing, servers, tokens, users, named]);
      let checked = 0;
      const wrong: string[] = [];
      for (const route of apiRoutes) {
        const used = found.get(`${route.method} ${route.path}`);
        if (!used) continue;
        checked++;
        const declared = [route.body, route.query, ...Object.values(route.params ?? {})];
        if (!declared.includes(used.schema)) wrong.push(`${route.method} ${route.path} parses ${used.names.join(' = ')}`);
      }
      expect(wrong).toEqual([]);
      // Most routes that take input were reached (the rest parse inline or need a state the probe lacks).
      expect(checked).toBeGreaterThan(30);
    } finally {
      await f.t.close();
    }
  }, 300_000);
});
