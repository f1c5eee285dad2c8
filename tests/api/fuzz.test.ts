import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as agent from '../../server/contract/agent';
import * as alerts from '../../server/contract/alerts';
import * as aliases from '../../server/contract/aliases';
import * as analytics from '../../server/contract/analytics';
import * as auth from '../../server/contract/auth';
import * as history from '../../server/contract/command-history';
import * as common from '../../server/contract/common';
import * as incident from '../../server/contract/incident-report';
import * as servers from '../../server/contract/servers';
import * as users from '../../server/contract/users';
import { discoverSchemas, fillUrl, hasBody, startFuzzApp, WHO, type FuzzApp, type FuzzRequest, type RouteSchema, type Who } from '../fuzz/fuzz-app';
import { CONTENT_TYPES, fromSchema, hostileJson, listBody, pathParam, pathVariant, queryFromSchema, queryString } from '../fuzz/inputs';
import { exportedSchemas, walkSchema } from '../fuzz/schema-walk';
import { backends } from './harness';

/**
 * Issue 11 §1: every registered route, as every role, with generated bad bodies, params, query
 * strings, content types and headers: never a 5xx, and a rejected request changes no row of any
 * table. The route list comes from the app itself (onRoute), so a new route is fuzzed without
 * anyone listing it here. `npm test` runs a bounded pass; `npm run fuzz` (FUZZ_SCALE=20) a long
 * one; FUZZ_SEED=<n> replays a failure. A failure names the route, role, request and answer.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const RUNS = Math.max(1, Math.round(3 * SCALE));
/** Spellings of each path per role (issue 25 §3): every route gets them, as anonymous and admin. */
const VARIANT_RUNS = Math.max(1, Math.round(2 * SCALE));
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const CONTRACT = [agent, alerts, aliases, analytics, auth, history, common, incident, servers, users];

const HOSTILE_HOSTS = ["x'+$(whoami)+'", 'evil.example', 'a b', '[::1', 'localhost:99999', '', '\u00e9.example', 'host/path', 'h"ost'];
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** Fixed vectors every route gets: the ones issue 11 found, and their cousins. */
function fixedVectors(apiKey: string): { name: string; query?: string; param?: string; payload?: string; headers?: Record<string, string> }[] {
  return [
    ...INHERITED.map((name) => ({ name: `sort/filter ${name}`, payload: `{"sort":{"by":${JSON.stringify(name)},"direction":"asc"},"filter":{${JSON.stringify(name)}:"x"}}` })),
    { name: 'NUL in body strings', payload: JSON.stringify({ email: '\u0000', password: 'a\u0000', search: '\u0000', name: 'g\u0000', hostname: '\u0000', log: '\u0000', command: '\u0000', input: { ['\u0000']: '\u0000' } }) },
    { name: 'NUL in path and query', param: '\u0000', query: 'id=%00&serverId=%00&from=%00&to=%00&panel=%00&percentage=%00' },
    { name: 'nested 4500 deep', payload: `{"input":${'['.repeat(4500)}${']'.repeat(4500)}}` },
    { name: 'body over 1 MB', payload: JSON.stringify({ search: 'x'.repeat(1_100_000) }) },
    { name: 'invalid JSON', payload: '{"a":' },
    { name: 'prototype pollution', payload: '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"x":1}}}' },
    { name: 'form body', payload: 'a=1&b=2', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { name: 'lone surrogates', payload: '{"name":"\\ud800","search":"\\udfff","hostname":"\\ud800x"}', query: 'id=%ED%A0%80' },
    { name: 'hostile Host', headers: { host: "x'+$(whoami)+'" } },
    { name: 'API key of the seeded server', headers: { authorization: `Bearer ${apiKey}` }, payload: '{"agentPort":"x"}' },
  ];
}

/** `arbitrary` one time in `every`, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, every: number) => fc.oneof({ weight: every - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const show = (s: string | undefined, max = 300) => (s === undefined ? '(none)' : JSON.stringify(s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s));

/** Fails with every failure spelled out (the first 30), server stack frames included. */
function report(failures: string[]): void {
  if (!failures.length) return;
  const shown = failures.slice(0, 30).join('\n\n').replace(/^(\s*)at /gm, '$1· ');
  throw new Error(`${failures.length} request(s) failed:\n\n${shown}${failures.length > 30 ? `\n\n… and ${failures.length - 30} more` : ''}`);
}

/** Every object key the contract declares: names for sort, filter and query keys. */
function contractKeys(): string[] {
  const keys = new Set<string>();
  for (const mod of CONTRACT) for (const [name, schema] of exportedSchemas(mod)) walkSchema(schema, name, ({ key }) => key && keys.add(key));
  return [...keys];
}

describe.each(await backends())('fuzz every route on $name', (backend) => {
  let f: FuzzApp;
  let state: Map<string, string>;
  let routes: { method: string; url: string }[];
  let schemas: Map<string, RouteSchema>;
  let requests = 0;

  beforeAll(async () => {
    f = await startFuzzApp(backend);
    // HEAD routes are Fastify's copies of the GET ones: the long run covers them too.
    routes = f.routes.filter((r) => SCALE > 1 || r.method !== 'HEAD');
    schemas = await discoverSchemas(f, CONTRACT);
    await f.restoreActors();
    state = await f.snapshot();
  }, 120_000);
  afterAll(async () => {
    console.log(`fuzz on ${backend.name}: ${requests} requests over ${routes?.length} routes (${schemas?.size} with a known input schema)`);
    await f?.t.close();
  });

  /** One request; a failure is a text that says which route, role, request and answer. */
  async function check(who: Who, route: { method: string; url: string }, request: FuzzRequest): Promise<string | null> {
    return (await checked(who, route, request)).failure;
  }

  /** check(), with the answer. */
  async function checked(who: Who, route: { method: string; url: string }, request: FuzzRequest): Promise<{ failure: string | null; status: number; body: string }> {
    requests++;
    const res = await f.send(who, request);
    const failure = await judge(who, route, request, res);
    return { failure, status: res.status, body: res.body };
  }

  async function judge(who: Who, route: { method: string; url: string }, request: FuzzRequest, res: Awaited<ReturnType<FuzzApp['send']>>): Promise<string | null> {
    if (process.env.FUZZ_DEBUG) console.log(who, request.method, request.url.slice(0, 100), res.status, (request.payload ?? '').slice(0, 150), res.body.slice(0, 120));
    const what = () =>
      `${route.method} ${route.url} as ${who} on ${f.backend}: ${request.method} ${request.url}\n  headers: ${JSON.stringify(request.headers)}\n  body: ${show(request.payload)}\n  → ${res.status} ${show(res.body)}`;
    if (res.status >= 500) return `${what()}${res.error ? `\n  server error: ${res.error.replace(/\n/g, '\n    ')}` : ''}`;
    if (res.status < 400) {
      await f.restoreActors();
      state = await f.snapshot();
      return null;
    }
    const after = await f.snapshot();
    const changed = [...after.keys()].filter((t) => after.get(t) !== state.get(t));
    state = after;
    return changed.length ? `${what()}\n  rejected, yet rows changed in: ${changed.map((t) => `${t} (${after.get(t)?.split(':')[0]} rows now)`).join(', ')}` : null;
  }

  it('the route list comes from the app, and input schemas are found for the writes', () => {
    const paths = f.routes.map((r) => `${r.method} ${r.url}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /api/auth/signin', 'POST /api/alerts/all', 'PATCH /api/alerts/:id', 'GET /cli/0.0.2/sb-cli']));
    expect(schemas.get('PATCH /api/alerts/:id')?.names).toEqual(['updateAlertSchema']);
    expect(schemas.get('POST /api/users/all')?.names).toEqual(['listQuerySchema']);
    // The history export's query is this very object: known by identity, under both its names.
    expect(schemas.get('GET /api/incident-report')?.schema).toBe(incident.incidentReportQuerySchema);
    expect(schemas.get('GET /api/incident-report')?.in).toBe('query');
    expect(schemas.get('GET /api/incident-report')?.names).toEqual(expect.arrayContaining(['incidentReportQuerySchema', 'historyExportQuerySchema']));
  });

  it('fixed vectors on every route: no 5xx, nothing changed when refused', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      for (const who of SCALE > 1 ? WHO : (['admin'] as const)) {
        for (const v of fixedVectors(f.apiKey)) {
          const headers: Record<string, string> = { 'x-requested-with': 'opsdeck', ...(v.payload !== undefined ? { 'content-type': 'application/json' } : {}), ...v.headers };
          const url = fillUrl(route.url, [v.param ?? f.pools.ids[0]!]) + (v.query ? `?${v.query}` : '');
          const failure = await check(who, route, { method: route.method, url, headers, payload: hasBody(route.method) ? v.payload : undefined });
          if (failure) failures.push(`[${v.name}] ${failure}`);
        }
      }
    }
    report(failures);
  }, 600_000 * Math.max(1, SCALE));

  it('another spelling of every path (encoded, doubled slashes, dot segments, case) meets the guards of the plain path: same answer, nothing changed when refused', async () => {
    const failures: string[] = [];
    // Without x-requested-with: a cookie write by any spelling must meet the cross-site guard as the plain path does.
    for (const route of routes) {
      const plainUrl = fillUrl(route.url, [f.pools.ids[0]!]);
      for (const who of SCALE > 1 ? WHO : (['anonymous', 'admin'] as const)) {
        const result = await fc.check(
          fc.asyncProperty(pathVariant(plainUrl), async (variant) => {
            const headers: Record<string, string> = hasBody(route.method) ? { 'content-type': 'application/json' } : {};
            const payload = hasBody(route.method) ? '{}' : undefined;
            const plain = await checked(who, route, { method: route.method, url: plainUrl, headers, payload });
            if (plain.failure) throw new Error(plain.failure);
            const other = await checked(who, route, { method: route.method, url: variant, headers, payload });
            if (other.failure) throw new Error(other.failure);
            // A rate limit may be reached between the two: that pair says nothing.
            if (plain.status !== 429 && other.status !== 429 && plain.status !== other.status) {
              throw new Error(`${route.method} ${route.url} as ${who} on ${f.backend}: ${route.method} ${plainUrl} → ${plain.status}, but ${variant} → ${other.status} ${show(other.body)}`);
            }
          }),
          { numRuns: VARIANT_RUNS, seed: SEED, endOnFailure: true },
        );
        if (result.failed) failures.push(`${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n  (replay: FUZZ_SEED=${result.seed})`);
      }
    }
    report(failures);
  }, 600_000 * Math.max(1, SCALE));

  it(`generated requests on every route, as ${WHO.join(', ')}: no 5xx, nothing changed when refused`, async () => {
    const failures: string[] = [];
    const keys = contractKeys();
    const list = listBody(keys, f.pools).map((b) => JSON.stringify(b));
    const hostile = hostileJson(3).map((b) => JSON.stringify(b) ?? 'null');
    const raw = fc.string({ unit: 'binary', maxLength: 60 });
    const none = fc.constant(undefined);
    /** Bodies where they matter: shaped by the route's own schema when it has one found, hostile around it. */
    const bodyFor = (route: { method: string; url: string }): fc.Arbitrary<string | undefined> => {
      if (!hasBody(route.method)) return none;
      const known = schemas.get(`${route.method} ${route.url}`);
      const shaped = known?.schema === common.listQuerySchema ? list : known ? fromSchema(known.schema, f.pools).map((b) => JSON.stringify(b) ?? 'null') : list;
      return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: raw }, { weight: 1, arbitrary: none });
    };
    const queryFor = (route: { method: string; url: string }): fc.Arbitrary<string | null> => {
      const known = schemas.get(`${route.method} ${route.url}`);
      return known?.in === 'query' ? fc.oneof({ weight: 4, arbitrary: queryFromSchema(known.schema, f.pools) }, { weight: 1, arbitrary: queryString(keys, f.pools) }) : sometimes(queryString(keys, f.pools), 2);
    };
    const headers = fc.record({
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
      crossSite: sometimes(fc.constant(true), 10),
      authorization: sometimes(fc.constantFrom(`Bearer ${f.apiKey}`, 'Bearer sbk_' + 'a'.repeat(30), 'Basic Zm9vOmJhcg==', 'Bearer', `${f.apiKey}`), 4),
      host: sometimes(fc.constantFrom(...HOSTILE_HOSTS), 4),
      cookie: sometimes(fc.constantFrom('opsdeck_session=x', 'opsdeck_session=' + 'a'.repeat(300), 'opsdeck_session=%00', 'a=b; opsdeck_session=;'), 8),
    });

    for (const route of routes) {
      const input = fc.record({ params: fc.array(pathParam(f.pools), { minLength: 1, maxLength: 3 }), query: queryFor(route), body: bodyFor(route), headers });
      for (const who of WHO) {
        const result = await fc.check(
          fc.asyncProperty(input, async ({ params, query, body, headers: h }) => {
            const sent: Record<string, string> = {};
            if (!h.crossSite) sent['x-requested-with'] = 'opsdeck';
            if (body !== undefined) sent['content-type'] = h.contentType;
            if (h.authorization) sent.authorization = h.authorization;
            if (h.host !== null) sent.host = h.host;
            if (h.cookie) sent.cookie = h.cookie;
            // A DELETE of a seeded row succeeds and leaves later runs nothing to reach: delete random ids only.
            const ids = route.method === 'DELETE' ? params.filter((p) => !f.pools.ids.includes(p)) : params;
            const url = fillUrl(route.url, ids) + (query ? `?${query}` : '');
            const failure = await check(who, route, { method: route.method, url, headers: sent, payload: body });
            if (failure) throw new Error(failure);
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
        if (result.failed) failures.push(`${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n  (replay: FUZZ_SEED=${result.seed})`);
      }
    }
    report(failures);
  }, 600_000 * Math.max(1, SCALE));
});
