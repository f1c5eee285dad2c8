import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { openDatabase } from '../../server/db/client';
import { backends, startTestApp, type TestApp } from './harness';

interface Frame {
  id?: string;
  event: string;
  data: any;
}

/** An open GET /api/live read frame by frame over real HTTP. */
interface Stream {
  status: number;
  frames: Frame[];
  /** Resolves with the first frame (from the start) that matches, or fails after `ms`. */
  next: (match: (f: Frame) => boolean, ms?: number) => Promise<Frame>;
  close: () => void;
  ended: Promise<void>;
}

async function openStream(base: string, headers: Record<string, string>): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/live`, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  let ended: Promise<void> = Promise.resolve();
  if (res.status === 200 && res.body) {
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    ended = (async () => {
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const f: Partial<Frame> & { lines: string[] } = { lines: [] };
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) f.id = line.slice(4);
              else if (line.startsWith('event: ')) f.event = line.slice(7);
              else if (line.startsWith('data: ')) f.lines.push(line.slice(6));
            }
            if (!f.event) continue;
            frames.push({ id: f.id, event: f.event, data: JSON.parse(f.lines.join('\n')) });
            for (const w of waiters) w();
          }
        }
      } catch {
        // Aborted by close().
      }
      for (const w of waiters) w();
    })();
  } else {
    await res.text();
  }
  let closed = false;
  void ended.then(() => (closed = true));
  return {
    status: res.status,
    frames,
    ended,
    close: () => controller.abort(),
    next: (match, ms = 3_000) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = frames.find(match);
          if (found) {
            waiters.delete(look);
            clearTimeout(timer);
            resolve(found);
          } else if (closed) {
            waiters.delete(look);
            clearTimeout(timer);
            reject(new Error(`stream ended without the frame; had ${JSON.stringify(frames.map((f) => f.event))}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(new Error(`no matching frame within ${ms} ms; had ${JSON.stringify(frames.map((f) => [f.event, f.data.change]))}`));
        }, ms);
        waiters.add(look);
        look();
      }),
  };
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

let octet = 0;

describe.each(await backends())('GET /api/live on $name', (backend) => {
  let t: TestApp;
  let base: string;
  let admin: string;
  let user: string;
  const streams: Stream[] = [];
  const stream = async (headers: Record<string, string>) => {
    const s = await openStream(base, headers);
    streams.push(s);
    return s;
  };
  const addServer = async (hostname: string) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress: `10.77.0.${++octet}`, operating_system: 'linux' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result._id as string;
  };
  /** An alert as the evaluator opens one: a row written straight into the database. */
  const openAlert = async (serverId: string, hostname: string, severity = 'critical') => {
    const [row] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, hostname, instance, alertname, type, severity, status) values ($1, $2, '10.77.0.1', 'high_cpu_usage', 'resouce_alert', $3, 'firing') returning id`,
      [serverId, hostname, severity],
    );
    return row!.id;
  };

  beforeAll(async () => {
    t = await startTestApp(backend, { live: { retentionMinutes: 15, heartbeatSeconds: 1 } });
    base = await listen(t.app);
    const a = await t.addUser({ role: 'admin' });
    admin = await t.signIn(a.email, a.password);
    const u = await t.addUser({ role: 'user' });
    user = await t.signIn(u.email, u.password);
  }, 60_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.close();
  });

  it('answers 401 without a session or with a bad token, 406 to a client that does not ask for events, 400 on a bad Last-Event-ID', async () => {
    expect((await stream({})).status).toBe(401);
    expect((await stream({ cookie: 'opsdeck_session=nope' })).status).toBe(401);
    expect((await stream({ authorization: 'Bearer odt_notarealtoken' })).status).toBe(401);
    const plain = await t.call('GET', '/api/live', { cookie: admin, headers: { accept: 'application/json' } });
    expect(plain.status).toBe(406);
    expect(plain.body.field).toBe('accept');
    const bad = await stream({ cookie: admin, 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
  });

  it('pushes an alert opened by the evaluator, changed through the API and the History record of the change', async () => {
    const serverId = await addServer('live-a');
    const s = await stream({ cookie: user });
    expect(s.status).toBe(200);
    await s.next((f) => f.event === 'hello');
    const alertId = await openAlert(serverId, 'live-a');
    const opened = await s.next((f) => f.event === 'alert' && f.data.id === alertId && f.data.change === 'opened');
    expect(opened.data).toMatchObject({ status: 'firing', severity: 'critical', hostname: 'live-a', alertname: 'high_cpu_usage', serverId });
    const started = Date.now();
    const res = await t.call('PATCH', `/api/alerts/${alertId}`, { cookie: admin, body: { status: 'resolved', log: 'fixed' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await s.next((f) => f.event === 'alert' && f.data.id === alertId && f.data.change === 'resolved');
    expect(Date.now() - started).toBeLessThan(2_000);
    await s.next((f) => f.event === 'alert' && f.data.id === alertId && f.data.change === 'timeline');
    await s.next((f) => f.event === 'history' && typeof f.data.command === 'string' && f.data.command.includes('/api/alerts/'));
    // Each frame's id is a cursor that never runs ahead of its own event.
    for (const f of s.frames.filter((x) => x.data.seq)) expect(Number(f.id)).toBeLessThanOrEqual(f.data.seq);
  });

  it('pushes server state changes and registrations; new figures alone are one event per round', async () => {
    const s = await stream({ cookie: admin });
    await s.next((f) => f.event === 'hello');
    const serverId = await addServer('live-b');
    await s.next((f) => f.event === 'server' && f.data.id === serverId && f.data.change === 'created');
    await t.database.query(`update servers set state = 'down' where id = $1`, [serverId]);
    await s.next((f) => f.event === 'server' && f.data.id === serverId && f.data.change === 'state' && f.data.state === 'down');
    const before = s.frames.length;
    await t.database.query(`update servers set cpu_usage = 42 where id = $1`, [serverId]);
    await t.database.query(`insert into live_events (kind, data) values ('servers', '{"change":"figures"}')`);
    await s.next((f) => f.event === 'servers' && f.data.change === 'figures');
    expect(s.frames.slice(before).filter((f) => f.event === 'server')).toEqual([]);
  });

  it('pushes on-call schedule changes: made, changed, an override added or removed, its feed made, deleted', async () => {
    const u = await t.addUser({ role: 'user' });
    const s = await stream({ cookie: user });
    await s.next((f) => f.event === 'hello');
    const made = await t.call('POST', '/api/oncall-schedules', { cookie: admin, body: { name: `live-oncall-${++octet}`, timeZone: 'UTC', layers: [{ participants: [u._id], shift: { length: 1, unit: 'days' }, start: '2026-01-05', handoff: '09:00' }] } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.result._id as string;
    await s.next((f) => f.event === 'schedule' && f.data.id === id && f.data.change === 'created');
    expect((await t.call('PATCH', `/api/oncall-schedules/${id}`, { cookie: admin, body: { timeZone: 'Europe/London' } })).status).toBe(200);
    await s.next((f) => f.event === 'schedule' && f.data.id === id && f.data.change === 'changed');
    const override = await t.call('POST', `/api/oncall-schedules/${id}/overrides`, { cookie: admin, body: { user: u._id, start: '2026-02-01T00:00:00Z', end: '2026-02-02T00:00:00Z' } });
    expect(override.status, JSON.stringify(override.body)).toBe(201);
    await s.next((f) => f.event === 'schedule' && f.data.id === id && f.data.change === 'override');
    const before = s.frames.length;
    const overrideId = (override.body.result.overrides as { _id: string }[])[0]!._id;
    expect((await t.call('DELETE', `/api/oncall-schedules/${id}/overrides/${overrideId}`, { cookie: admin })).status).toBe(200);
    await s.next((f, i = s.frames.indexOf(f)) => i >= before && f.event === 'schedule' && f.data.id === id && f.data.change === 'override');
    expect((await t.call('POST', `/api/oncall-schedules/${id}/feed`, { cookie: admin })).status).toBe(201);
    await s.next((f) => f.event === 'schedule' && f.data.id === id && f.data.change === 'feed');
    // A person's own feed is nobody else's: it writes no schedule event.
    expect((await t.call('POST', '/api/oncall/my-feed', { cookie: user })).status).toBe(201);
    expect((await t.call('DELETE', `/api/oncall-schedules/${id}`, { cookie: admin })).status).toBe(200);
    await s.next((f) => f.event === 'schedule' && f.data.id === id && f.data.change === 'deleted');
    expect(s.frames.filter((f) => f.event === 'schedule' && f.data.id !== id)).toEqual([]);
  });

  it('a personal API token opens the stream too', async () => {
    const made = await t.call('POST', '/api/auth/tokens', { cookie: admin, body: { name: `live-${++octet}`, scope: 'read' } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const s = await stream({ authorization: `Bearer ${made.body.result.token}` });
    expect(s.status).toBe(200);
    await s.next((f) => f.event === 'hello');
  });

  it('resumes after a drop with Last-Event-ID without losing events, and says reset when they are gone', async () => {
    const serverId = await addServer('live-c');
    const first = await stream({ cookie: admin });
    const hello = await first.next((f) => f.event === 'hello');
    first.close();
    await first.ended;
    // Changes while the tab is cut off.
    const missed = [await openAlert(serverId, 'live-c'), await openAlert(serverId, 'live-c', 'warning')];
    const again = await stream({ cookie: admin, 'last-event-id': hello.id! });
    expect(again.status).toBe(200);
    expect((await again.next((f) => f.event === 'hello')).data.resumed).toBe(true);
    for (const id of missed) await again.next((f) => f.event === 'alert' && f.data.id === id && f.data.change === 'opened');
    // Nothing twice.
    const seqs = again.frames.map((f) => f.data.seq).filter(Boolean);
    expect(new Set(seqs).size).toBe(seqs.length);
    // Older than what is kept: pruned, so the tab is told to start over.
    await t.database.query('delete from live_events');
    const stale = await stream({ cookie: admin, 'last-event-id': hello.id! });
    await stale.next((f) => f.event === 'reset');
  });

  it('ends the stream with signed-out once the session is gone', async () => {
    const u = await t.addUser({ role: 'user' });
    const cookie = await t.signIn(u.email, u.password);
    const s = await stream({ cookie });
    await s.next((f) => f.event === 'hello');
    expect((await t.call('POST', '/api/auth/signout', { cookie })).status).toBe(200);
    await s.next((f) => f.event === 'signed-out', 4_000);
    await s.ended;
  });
});

describe.runIf((await backends()).some((b) => b.name === 'postgres'))('GET /api/live across replicas on PostgreSQL', () => {
  it('a change committed on one replica reaches a stream open on another', async () => {
    const backend = (await backends()).find((b) => b.name === 'postgres')!;
    const t = await startTestApp(backend);
    let second: FastifyInstance | undefined;
    let s: Stream | undefined;
    try {
      const [{ current_database: name }] = (await t.database.query<{ current_database: string }>('select current_database()')) as [{ current_database: string }];
      const replicaUrl = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
      replicaUrl.pathname = `/${name}`;
      const replicaDb = await openDatabase({ databaseUrl: replicaUrl.toString() });
      second = await buildApp(testConfig({ signinRateLimit: 10_000 }), { database: replicaDb });
      second.addHook('onClose', async () => replicaDb.close());
      const base = await listen(second);
      const a = await t.addUser({ role: 'admin' });
      const cookieA = await t.signIn(a.email, a.password);
      s = await openStream(base, { cookie: cookieA });
      expect(s.status).toBe(200);
      await s.next((f) => f.event === 'hello');
      const res = await t.call('POST', '/api/servers', { cookie: cookieA, body: { hostname: 'replica-x', ipaddress: '10.78.0.1', operating_system: 'linux' } });
      expect(res.status).toBe(201);
      const started = Date.now();
      await s.next((f) => f.event === 'server' && f.data.id === res.body.result._id && f.data.change === 'created');
      await s.next((f) => f.event === 'history' && f.data.command.includes('/api/servers'));
      expect(Date.now() - started).toBeLessThan(2_000);
      // Its LISTEN connection cut (a PostgreSQL restart, a failover): it listens again and reads what it missed.
      await t.database.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'opsdeck live' and datname = current_database()`);
      await new Promise((r) => setTimeout(r, 200));
      const [{ id: alertId }] = (await t.database.query<{ id: string }>(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status) values ($1, 'replica-x', '10.78.0.1', 'instance_down', 'resouce_alert', 'critical', 'firing') returning id`,
        [res.body.result._id],
      )) as [{ id: string }];
      await s.next((f) => f.event === 'alert' && f.data.id === alertId, 8_000);
    } finally {
      s?.close();
      await second?.close();
      await t.close();
    }
  }, 60_000);
});
