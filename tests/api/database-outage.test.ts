/**
 * A PostgreSQL outage (issue 12 §1): the database behind a loopback proxy that the test cuts.
 * Liveness keeps answering, readiness and the API say 503 naming the database (never a 500),
 * the background work stops and backs off instead of logging every attempt, and everything
 * resumes — leadership, scraping — once the database is back.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { nodeExporterWithDisk } from '../../server/monitoring/fixtures/node-exporter';
import { adminQuery, backends, TEST_DATABASE_URL } from './harness';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

const hasPostgres = (await backends()).some((b) => b.name === 'postgres');

interface LogLine {
  level: number;
  msg: string;
  module?: string;
  time: number;
}

describe.runIf(hasPostgres)('a database outage on PostgreSQL', () => {
  const name = `opsdeck_outage_${randomBytes(5).toString('hex')}`;
  const logs: LogLine[] = [];
  let proxy: TcpProxy;
  let database: Database;
  let exporter: Server;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let serverId: string;

  const admin = adminQuery;
  const get = (url: string) => app.inject({ method: 'GET', url });
  const until = async (what: string, probe: () => Promise<boolean>, ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await probe().catch(() => false)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`Timed out waiting for ${what}`);
  };
  const observedAt = async () => {
    const [row] = await database.query<{ observed_at: Date | null }>('select observed_at from servers where id = $1', [serverId]);
    return row?.observed_at?.getTime() ?? 0;
  };

  beforeAll(async () => {
    exporter = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(nodeExporterWithDisk(40)));
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    await admin(`create database ${name}`);
    const direct = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    viaProxy.pathname = `/${name}`;
    database = await openDatabase({ databaseUrl: viaProxy.toString() });
    const base = testConfig();
    app = await buildApp(
      {
        ...base,
        logLevel: 'info',
        monitoring: { ...base.monitoring, enabled: true, scrapeIntervalS: 1, scrapeTimeoutS: 0.9 },
        alerting: { ...base.alerting, enabled: true, evalIntervalS: 1 },
        delivery: { ...base.delivery, enabled: true, pollIntervalS: 0.2 },
        leader: { heartbeatMs: 300, leaseMs: 900 },
      },
      { database, logStream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } },
    );
    await app.ready();
    const [row] = await database.query<{ id: string }>(
      `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured) values ('outage', '127.0.0.1', $1, 'linux', true) returning id`,
      [(exporter.address() as AddressInfo).port],
    );
    serverId = row!.id;
    await until('the first scrape', async () => (await observedAt()) > 0, 10_000);
    await until('readiness', async () => (await get('/api/ready')).statusCode === 200, 10_000);
  }, 60_000);

  /**
   * What is still open when a teardown step overruns: the pool's connections and what each of
   * this database's backends waits on (a clean-clone run once spent the hook's whole minute here).
   */
  const openWork = async () => {
    const pool = (database?.db as unknown as { $client?: { totalCount: number; idleCount: number; waitingCount: number } } | undefined)?.$client;
    const c = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000, query_timeout: 2000 });
    let backends: unknown = 'unknown';
    try {
      await c.connect();
      backends = (
        await c.query(
          `select pid, application_name, datname, state, wait_event_type, wait_event, round(extract(epoch from now() - query_start)) as query_s, left(query, 160) as query
           from pg_stat_activity where datname = $1 or query ilike 'drop database%'`,
          [name],
        )
      ).rows;
    } catch (error) {
      backends = `could not look: ${String(error)}`;
    } finally {
      await c.end().catch(() => undefined);
    }
    return { leader: app?.leader.isLeader, pool: pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }, backends };
  };
  /** One teardown step, waited for at most `ms`: an overrun is reported with what is open, and the rest still runs. */
  const step = async (label: string, ms: number, fn: () => Promise<unknown>) => {
    let timer: NodeJS.Timeout | undefined;
    const overran = new Promise<'overran'>((resolve) => (timer = setTimeout(() => resolve('overran'), ms)));
    const outcome = await Promise.race([fn().then(() => 'done' as const), overran]).finally(() => clearTimeout(timer));
    if (outcome === 'overran') console.warn(`database-outage teardown: ${label} still running after ${ms} ms`, JSON.stringify(await openWork(), null, 1));
  };

  afterAll(async () => {
    await proxy?.restore();
    await step('app.close()', 20_000, async () => app?.close());
    await step('database.close()', 10_000, async () => database?.close());
    await proxy?.close();
    await new Promise<void>((resolve) => exporter?.close(() => resolve()));
    // WITH (FORCE) also ends any connection an overrun step above left open.
    await step('drop database', 30_000, () => admin(`drop database if exists ${name} with (force)`));
  }, 90_000);

  it('answers liveness, says 503 naming the database, backs off quietly, and resumes when the database is back', async () => {
    expect(app.leader.isLeader).toBe(true);
    await proxy.cut();
    const cutAt = Date.now();
    const fromLine = logs.length;

    // Leader work stops as soon as the leader's connection is gone.
    await until('the leader to step down', async () => !app.leader.isLeader, 5000);
    expect((await get('/api/health')).statusCode).toBe(200);
    const ready = await get('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json().failing).toContain('database');
    expect(ready.json().message).toMatch(/^Not ready: database: /);
    const api = await app.inject({ method: 'GET', url: '/api/servers/' + serverId, headers: { cookie: 'opsdeck_session=whatever' } });
    expect(api.statusCode).toBe(503);
    expect(api.json()).toMatchObject({ statusCode: 503, message: 'The database is unavailable; try again shortly' });

    // Six seconds of outage: at 0.2 s delivery polls, 1 s scrapes and evaluation and 0.3 s
    // heartbeats, logging every attempt would be well over a hundred lines.
    await new Promise((r) => setTimeout(r, 6000 - (Date.now() - cutAt)));
    const during = logs.slice(fromLine).filter((l) => l.level >= 40);
    expect(during.length, during.map((l) => `${l.module}: ${l.msg}`).join('\n')).toBeLessThanOrEqual(12);
    const perMessage = new Map<string, number>();
    for (const l of during) perMessage.set(l.msg, (perMessage.get(l.msg) ?? 0) + 1);
    for (const [msg, n] of perMessage) expect(n, msg).toBeLessThanOrEqual(2);

    await proxy.restore();
    const before = await observedAt();
    await until('leadership again', async () => app.leader.isLeader, 40_000);
    await until('scraping again', async () => (await observedAt()) > before, 10_000);
    await until('readiness again', async () => (await get('/api/ready')).statusCode === 200, 10_000);
    expect(logs.slice(fromLine).some((l) => l.msg === 'The leader election works again')).toBe(true);
  }, 90_000);
});
