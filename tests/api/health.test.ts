/**
 * Liveness and readiness (issue 12 §2), and which paths may get the app's HTML: probes and
 * scrapers pointed at /healthz or /metrics must not pass on a 200 page of the web app.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

describe.each(await backends())('health and readiness on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(backend);
  });
  afterAll(async () => t.close());

  it('answers liveness without a session', async () => {
    expect(await t.call('GET', '/api/health')).toMatchObject({ status: 200, body: { status: 'ok', db: backend.name } });
  });

  it('is ready when the database answers, migrations are applied and a leader is known', async () => {
    const res = await t.call('GET', '/api/ready');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('ready');
    expect(Object.keys(res.body.checks).sort()).toEqual(['database', 'leader', 'migrations', 'monitoring', 'storage']);
    for (const check of Object.values(res.body.checks) as { ok: boolean }[]) expect(check.ok).toBe(true);
    // On PostgreSQL the leader is this process, holding the advisory lock on its own connection.
    if (backend.name === 'postgres') expect(res.body.checks.leader.detail).toMatch(/^this process \(opsdeck /);
  });

  it('is not ready, naming the part, when a migration is missing', async () => {
    const [newest] = await t.database.query<{ id: number; hash: string; created_at: string }>('select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1');
    await t.database.query('delete from drizzle.__drizzle_migrations where id = $1', [newest!.id]);
    try {
      const res = await t.call('GET', '/api/ready');
      expect(res.status).toBe(503);
      expect(res.body.failing).toEqual(['migrations']);
      expect(res.body.message).toMatch(/^Not ready: migrations: The database lacks migration \d{4}_/);
    } finally {
      await t.database.query('insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)', [newest!.id, newest!.hash, newest!.created_at]);
    }
    expect((await t.call('GET', '/api/ready')).status).toBe(200);
  });

  if (backend.name === 'postgres') {
    it('is not ready when no process holds the leader lock', async () => {
      await t.app.leader.stop();
      try {
        const res = await t.call('GET', '/api/ready');
        expect(res.status).toBe(503);
        expect(res.body.failing).toEqual(['leader']);
        expect(res.body.checks.leader.detail).toMatch(/No process holds the leader lock/);
      } finally {
        await t.app.leader.start();
      }
      expect((await t.call('GET', '/api/ready')).status).toBe(200);
    });
  }
});

describe('paths that are not app pages never get the app with 200', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let database: Awaited<ReturnType<Awaited<ReturnType<typeof backends>>[number]['open']>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opsdeck-ui-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Opsdeck</title><div id="root"></div>');
    const [pglite] = (await backends()).filter((b) => b.name === 'pglite');
    database = await pglite!.open();
    // /metrics off (METRICS_ENABLED=0): then it is just another path that is not a page.
    app = await buildApp(testConfig({ uiDir: dir, metrics: { enabled: false } }), { database: database.database });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, accept = 'text/html,application/xhtml+xml,*/*;q=0.8') => app.inject({ method: 'GET', url, headers: { accept } });

  it.each(['/', '/servers', '/servers/show/0b0e5f7a-1c2d-4e3f-8a9b-0c1d2e3f4a5b', '/no-such-page', '/notifications?page=2'])('serves the app for the navigation %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<div id="root">');
  });

  it.each(['/metrics', '/healthz', '/readyz', '/livez', '/health', '/ready', '/api', '/api/', '/api/nope', '/api/health/x', '/assets/missing.js', '/favicon.png', '/robots.txt', '/.env', '/servers/x.php'])(
    'answers %s with a 404, not the app',
    async (url) => {
      for (const accept of ['*/*', 'text/html']) {
        const res = await get(url, accept);
        expect(res.statusCode, `${url} (${accept})`).toBe(404);
        expect(res.body).not.toContain('<div id="root">');
      }
    },
  );

  it('answers API-style clients that want JSON with a 404, not the app', async () => {
    const res = await get('/servers', 'application/json');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404 });
  });

  it('answers API paths with JSON', async () => {
    const res = await get('/api/nope', '*/*');
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'No API call GET /api/nope' });
  });
});
