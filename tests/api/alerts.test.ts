import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluator } from '../../server/alerting/evaluator';
import type { Role } from '../../server/contract/permissions';
import { backends, startTestApp, type TestApp } from './harness';

type Who = Role | 'anonymous';
const everyone: Who[] = ['admin', 'sysadmin', 'user', 'anonymous'];
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let octet = 0;
const nextIp = () => `10.44.${Math.floor(++octet / 250)}.${(octet % 250) + 1}`;

describe.each(await backends())('alerts, alert config and notification groups on $name', (backend) => {
  let t: TestApp;
  const cookies = new Map<Who, string | undefined>();
  let admin: string;

  // Registered without a configured agent, so no default rules exist until a test creates them
  // (a server registered agent-configured gets them at once: see 'alert config' below).
  const server = async (hostname = `alert-host-${octet}`) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname, ipaddress: nextIp(), operating_system: 'linux' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; hostname: string; ipaddress: string };
  };
  const group = async (body: Record<string, unknown> = {}) => {
    const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: `group-${++octet}`, emailList: ['ops@example.com'], ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; id: string; name: string };
  };
  const defaults = async (serverId: string) => {
    const res = await t.call('POST', `/api/alert-config/create-default-alert-rules/${serverId}`, { cookie: admin });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string; serverId: string; rules: { _id: string; name: string; metric: string; threshold: number | null; [k: string]: unknown }[] };
  };
  /** Fires real alerts through the evaluator: the server's CPU above 90% for the default 300 s. */
  const fire = async (serverId: string, rule = 'cpu_usage') => {
    let clock = Date.now() - 400_000;
    // The agent gets configured as a scrape would find it (registering it configured would have
    // created its rules already; the tests create them explicitly).
    const scrape = () => t.database.query(`update servers set is_agent_configured = true, state = 'up', ${rule} = 97, last_scraped_at = $2 where id = $1`, [serverId, new Date(clock)]);
    const evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet, () => clock);
    await scrape();
    await evaluator.tick();
    clock += 300_000;
    await scrape();
    const r = await evaluator.tick();
    await evaluator.stop();
    const [id] = await t.database.query<{ id: string }>(`select id from alerts where server_id = $1 and status = 'firing' order by created_at desc limit 1`, [serverId]);
    expect(r?.fired.length).toBeGreaterThan(0);
    return id!.id;
  };
  const snapshot = async () => ({
    rules: await t.database.query('select * from alert_rules order by id'),
    alerts: await t.database.query('select * from alerts order by id'),
    groups: await t.database.query('select * from notification_groups order by id'),
    events: await t.count('alert_events'),
  });

  beforeAll(async () => {
    t = await startTestApp(backend);
    for (const who of everyone) {
      if (who === 'anonymous') cookies.set(who, undefined);
      else {
        const u = await t.addUser({ role: who, username: `${who}-alerts` });
        cookies.set(who, await t.signIn(u.email, u.password));
      }
    }
    admin = cookies.get('admin')!;
  });
  afterAll(async () => t.close());

  describe('notification groups', () => {
    it('creates with SPEC defaults (email on, Slack off), reads, lists by name and updates', async () => {
      const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'Ops team', emailList: ['a@example.com', 'A@example.com', 'b@example.com'] } });
      expect(res.status).toBe(201);
      const g = res.body.result;
      expect(g).toMatchObject({ _id: g.id, name: 'Ops team', description: '', emailEnabled: true, slackEnabled: false, slackChannel: null, emailList: ['a@example.com', 'b@example.com'] });
      expect((await t.call('GET', `/api/notification-groups/${g._id}`, { cookie: cookies.get('user') })).body.result).toEqual(g);
      const list = await t.call('POST', '/api/notification-groups/all', { cookie: admin, body: { pageNumber: 1, pageSize: 100, search: 'ops TE' } });
      expect(list.body.result.data.map((x: { name: string }) => x.name)).toEqual(['Ops team']);
      const up = await t.call('PATCH', `/api/notification-groups/${g._id}`, { cookie: admin, body: { slackEnabled: true, slackChannel: '#ops' } });
      expect(up.status).toBe(200);
      expect(up.body.result).toMatchObject({ slackEnabled: true, slackChannel: '#ops', name: 'Ops team' });
      // The channel is already there: enabling Slack again needs no channel in the body.
      expect((await t.call('PATCH', `/api/notification-groups/${g._id}`, { cookie: admin, body: { slackEnabled: true } })).status).toBe(200);
    });

    it("refuses bad groups with SPEC's messages and writes nothing", async () => {
      const existing = await group({ name: 'Taken name' });
      const before = await snapshot();
      const cases: [unknown, string, string][] = [
        [{}, 'name', 'name: Please enter notification group name'],
        [{ name: '   ' }, 'name', 'name: Please enter notification group name'],
        [{ name: 'x', slackEnabled: true }, 'slackChannel', 'slackChannel: Please enter a Slack channel'],
        [{ name: 'x', slackEnabled: true, slackChannel: '  ' }, 'slackChannel', 'slackChannel: Please enter a Slack channel'],
        [{ name: 'x', emailList: ['not-an-email'] }, 'emailList.0', 'emailList.0: Enter an email address like name@example.com'],
        [{ name: 'x', emailEnabled: 'yes' }, 'emailEnabled', 'emailEnabled: emailEnabled must be true or false'],
        [{ name: 'x', color: 'red' }, 'color', 'Unknown field "color"'],
      ];
      for (const [body, field, message] of cases) {
        const res = await t.call('POST', '/api/notification-groups', { cookie: admin, body });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body).toMatchObject({ field, message });
      }
      const dup = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'taken NAME' } });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({ field: 'name' });
      const slackOff = await t.call('PATCH', `/api/notification-groups/${existing._id}`, { cookie: admin, body: { slackEnabled: true } });
      expect(slackOff.status).toBe(400);
      expect(slackOff.body).toMatchObject({ field: 'slackChannel', message: 'slackChannel: Please enter a Slack channel' });
      expect(await snapshot()).toEqual(before);
    });

    it('deleting a group leaves the rules that named it without a group', async () => {
      const s = await server();
      const config = await defaults(s._id);
      const g = await group();
      const rules = config.rules.map((r) => ({ ...r, notificationGroup: g._id }));
      expect((await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, { cookie: admin, body: { ...config, rules } })).status).toBe(200);
      expect((await t.call('DELETE', `/api/notification-groups/${g._id}`, { cookie: admin })).body).toEqual({ result: { _id: g._id } });
      const after = await t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: admin, body: { pageSize: 100, filter: { serverId: s._id } } });
      expect(after.body.result.data[0].rules.every((r: { notificationGroup: string | null }) => r.notificationGroup === null)).toBe(true);
    });
  });

  describe('alert config', () => {
    it('a server registered with its agent configured gets the default rules at once', async () => {
      const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'rules-at-once', ipaddress: '10.66.0.9', operating_system: 'linux', isAgentConfigured: true } });
      expect(res.status).toBe(201);
      const got = await t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: admin, body: { pageSize: 100, filter: { serverId: res.body.result._id } } });
      expect(got.body.result.data).toHaveLength(1);
      expect(got.body.result.data[0].rules).toHaveLength(8);
    });

    it('has none until defaults are created; then the documented eight rules; a second create is a 409', async () => {
      const s = await server();
      const get = () => t.call('POST', '/api/alert-config/get-alert-config/all', { cookie: cookies.get('user'), body: { pageNumber: 1, pageSize: 100, filter: { serverId: s._id } } });
      expect((await get()).body.result).toEqual({ data: [], count: 0 });
      const config = await defaults(s._id);
      expect(config.serverId).toBe(s._id);
      expect(config.rules.map((r) => [r.name, r.metric, r.type, r.threshold, r.timeLimit, r.severity, r.enabled, r.notificationGroup])).toEqual([
        ['high_cpu_usage', 'cpu', 'resouce_alert', 90, 300, 'warning', true, null],
        ['high_memory_usage', 'memory', 'resouce_alert', 90, 300, 'warning', true, null],
        ['high_disk_usage', 'disk', 'resouce_alert', 85, 300, 'warning', true, null],
        ['critical_disk_usage', 'disk', 'resouce_alert', 95, 60, 'critical', true, null],
        ['instance_down', 'instance_down', 'resouce_alert', null, 60, 'critical', true, null],
        ['service_down', 'service_down', 'service_down_alert', null, 120, 'critical', true, null],
        ['disk_full_forecast', 'disk_forecast', 'resouce_alert', 24, 300, 'warning', true, null],
        ['memory_exhausted_forecast', 'memory_forecast', 'resouce_alert', 6, 300, 'warning', true, null],
      ]);
      expect((await get()).body.result).toEqual({ data: [config], count: 1 });
      expect((await t.call('POST', `/api/alert-config/create-default-alert-rules/${s._id}`, { cookie: admin })).status).toBe(409);
      expect((await t.call('POST', `/api/alert-config/create-default-alert-rules/00000000-0000-4000-8000-000000000000`, { cookie: admin })).status).toBe(404);
    });

    it('updates with the full config, refuses bad configs without writing, and resets to the defaults', async () => {
      const s = await server();
      const config = await defaults(s._id);
      const g = await group();
      const edited = { ...config, rules: config.rules.map((r) => (r.name === 'high_cpu_usage' ? { ...r, threshold: 95, timeLimit: 120, severity: 'critical', enabled: false, notificationGroup: g._id } : r)) };
      const res = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, { cookie: admin, body: edited });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.result.rules[0]).toMatchObject({ name: 'high_cpu_usage', threshold: 95, timeLimit: 120, severity: 'critical', enabled: false, notificationGroup: g._id });

      const before = await snapshot();
      const withRule = (i: number, patch: Record<string, unknown>) => ({ ...config, rules: config.rules.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
      const bad: [unknown, string][] = [
        [withRule(0, { threshold: 50 }), 'rules.0.threshold: threshold must be one of 99, 95, 90, 85, 80, 70, 60 percent (forecast rules: 1, 2, 4, 6, 12, 24, 48, 72 hours)'],
        [withRule(0, { threshold: null }), 'rules.0.threshold: high_cpu_usage needs a threshold'],
        [withRule(4, { threshold: 90 }), 'rules.4.threshold: instance_down has no threshold (send null)'],
        [withRule(0, { timeLimit: 30 }), 'rules.0.timeLimit: timeLimit must be one of 60, 120, 180, 240, 300 seconds (1 to 5 minutes)'],
        [withRule(0, { severity: 'meh' }), 'rules.0.severity: severity must be one of critical, warning, normal, info'],
        [withRule(0, { name: 'renamed' }), "rules.0.name: a rule's name cannot change"],
        [withRule(0, { notificationGroup: '00000000-0000-4000-8000-000000000000' }), 'rules.0.notificationGroup: no notification group with id "00000000-0000-4000-8000-000000000000"'],
        [withRule(0, { ...config.rules[1]! }), 'rules.1._id: rule "high_memory_usage" is listed twice'],
        [{ ...config, rules: config.rules.slice(1) }, 'rules: send the full config (8 rules, each once)'],
        [{ ...config, serverId: '00000000-0000-4000-8000-000000000000' }, 'serverId: the server of a config cannot change'],
        [{ rules: 'all' }, 'rules: Invalid input: expected array, received string'],
      ];
      for (const [body, message] of bad) {
        const r = await t.call('PATCH', `/api/alert-config/update-alert-config/${config._id}`, { cookie: admin, body });
        expect(r.status, message).toBe(400);
        expect(r.body.message).toBe(message);
      }
      expect((await t.call('PATCH', `/api/alert-config/update-alert-config/00000000-0000-4000-8000-000000000000`, { cookie: admin, body: config })).status).toBe(404);
      expect(await snapshot()).toEqual(before);

      const reset = await t.call('PATCH', `/api/alert-config/reset-alert-rules/${config._id}`, { cookie: admin });
      expect(reset.status).toBe(200);
      expect(reset.body.result.rules.map((r: { _id: string }) => r._id)).toEqual(config.rules.map((r) => r._id));
      expect(reset.body.result.rules[0]).toMatchObject({ threshold: 90, timeLimit: 300, severity: 'warning', enabled: true, notificationGroup: null });
    });
  });

  describe('alerts', () => {
    it('lists newest first with serverId, status, hostname contains, createdAt between and search; page size 25', async () => {
      const a = await server('list-web-01');
      const b = await server('list-db-01');
      await defaults(a._id);
      const fired = await fire(a._id);
      const insert = (s: { _id: string; hostname: string; ipaddress: string }, i: number, status: string, createdAt: string) =>
        t.database.query(
          `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, created_at)
           values ($1, $2, $3, $4, 'service_down', 'service_down_alert', 'critical', $5, 'Service down', $6)`,
          [s._id, `svc-${i}`, s.hostname, s.ipaddress, status, createdAt],
        );
      for (let i = 0; i < 30; i++) await insert(b, i, i % 3 === 0 ? 'resolved' : 'firing', new Date(Date.UTC(2025, 0, 1 + i)).toISOString());
      const list = (body: Record<string, unknown>, who: Who = 'user') => t.call('POST', '/api/alerts/all', { cookie: cookies.get(who), body });

      const page = await list({ filter: { serverId: b._id } });
      expect(page.status).toBe(200);
      expect(page.body.result.count).toBe(30);
      expect(page.body.result.data).toHaveLength(25);
      expect(page.body.result.data[0].createdAt).toBe('2025-01-30T00:00:00.000Z');
      expect((await list({ pageNumber: 2, filter: { serverId: b._id } })).body.result.data).toHaveLength(5);
      expect((await list({ filter: { serverId: b._id, status: 'resolved' } })).body.result.count).toBe(10);
      expect((await list({ filter: { serverId: b._id, status: ['firing', 'snoozed'] } })).body.result.count).toBe(20);
      const between = await list({ filter: { serverId: b._id, createdAt: { between: ['2025-01-05T00:00:00Z', '2025-01-07T00:00:00Z'] } } });
      expect(between.body.result.data.map((x: { createdAt: string }) => x.createdAt.slice(0, 10))).toEqual(['2025-01-07', '2025-01-06', '2025-01-05']);
      const host = await list({ filter: { hostname: { contains: 'WEB-0' } } });
      expect(host.body.result.data.map((x: { _id: string }) => x._id)).toEqual([fired]);
      const search = await list({ search: 'list-db', filter: { status: 'firing' } });
      expect(search.body.result.count).toBe(20);
      const one = host.body.result.data[0];
      expect(one).toMatchObject({ _id: fired, id: fired, hostname: 'list-web-01', instance: a.ipaddress, ipaddress: a.ipaddress, alertname: 'high_cpu_usage', type: 'resouce_alert', severity: 'warning', status: 'firing' });

      for (const body of [{ filter: { nope: 1 } }, { filter: { serverId: 'x' } }, { sort: { by: 'summary', direction: 'asc' } }, { pageSize: 101 }, { filter: { createdAt: { between: ['soon', 'later'] } } }]) {
        const r = await list(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
      }
    });

    it("sort firing: what is firing first, then snoozed and resolved, each newest first, paged straight across with the whole count; filters apply; SPEC's createdAt desc unchanged", async () => {
      const web = await server('order-web-01');
      const db = await server('order-db-01');
      // 30 alerts an hour apart on web: every third firing, the newest two snoozed and resolved
      // (newer than any firing one); a few on db, newer still, that the filters leave out.
      const insert = (s: { _id: string; hostname: string; ipaddress: string }, i: number, status: string, createdAt: Date) =>
        t.database.query(
          `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, created_at)
           values ($1, $2, $3, $4, 'service_down', 'service_down_alert', 'critical', $5, 'Service down', $6) returning id`,
          [s._id, `order-${i}`, s.hostname, s.ipaddress, status, createdAt],
        );
      const statusOf = (i: number) => ['firing', 'resolved', 'snoozed'][i % 3]!;
      const at = (i: number) => new Date(Date.UTC(2025, 1, 1, i));
      const ids: string[] = [];
      for (let i = 0; i < 30; i++) ids.push(((await insert(web, i, statusOf(i), at(i))) as { id: string }[])[0]!.id);
      for (let i = 0; i < 4; i++) await insert(db, 100 + i, i % 2 ? 'firing' : 'resolved', at(40 + i));
      const newestFirst = (keep: (i: number) => boolean) => Array.from({ length: 30 }, (_, k) => 29 - k).filter(keep);
      const expected = [...newestFirst((i) => statusOf(i) === 'firing'), ...newestFirst((i) => statusOf(i) !== 'firing')].map((i) => ids[i]);
      const firingSort = { by: 'firing', direction: 'desc' };
      const list = (body: Record<string, unknown>) => t.call('POST', '/api/alerts/all', { cookie: admin, body: { sort: firingSort, ...body } });
      const pages = async (filter: Record<string, unknown>, pageSize: number, wanted: (string | undefined)[]) => {
        const seen: string[] = [];
        for (let n = 1; n <= Math.ceil(wanted.length / pageSize) + 1; n++) {
          const r = await list({ pageNumber: n, pageSize, filter });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          expect(r.body.result.count, `page ${n} of ${JSON.stringify(filter)}`).toBe(wanted.length);
          expect(r.body.result.countEstimated).toBeUndefined();
          seen.push(...r.body.result.data.map((a: { _id: string }) => a._id));
        }
        expect(seen, JSON.stringify(filter)).toEqual(wanted);
      };
      // The boundary (10 firing) falls inside page 3 of 4: 8 + 2 firing, then the rest from its start.
      // By server (counted by the capped pass) and by hostname (counted from alert_counts).
      await pages({ serverId: web._id }, 4, expected);
      await pages({ hostname: { eq: 'order-web-01' } }, 4, expected);
      await pages({ hostname: { contains: 'order-web' } }, 10, expected);
      const page3 = await list({ pageNumber: 3, pageSize: 4, filter: { serverId: web._id } });
      expect(page3.body.result.data.map((a: { status: string }) => a.status)).toEqual(['firing', 'firing', 'snoozed', 'resolved']);
      expect(page3.body.result.data[2].createdAt).toBe(at(29).toISOString());
      // The status filter is kept: two statuses in their parts, one alone; a date range applies to both parts.
      await pages({ serverId: web._id, status: ['firing', 'resolved'] }, 4, expected.filter((id) => ['firing', 'resolved'].includes(statusOf(ids.indexOf(id!)))));
      await pages({ serverId: web._id, status: { eq: 'snoozed' } }, 4, newestFirst((i) => statusOf(i) === 'snoozed').map((i) => ids[i]));
      await pages({ serverId: web._id, status: 'firing' }, 25, newestFirst((i) => statusOf(i) === 'firing').map((i) => ids[i]));
      const range = { between: [at(10).toISOString(), at(20).toISOString()] };
      await pages({ serverId: web._id, createdAt: range }, 3, expected.filter((id) => ids.indexOf(id!) >= 10 && ids.indexOf(id!) <= 20));
      // Every alert: db's firing ones are the newest firing, before web's.
      const all = await list({ pageSize: 100 });
      const mine = all.body.result.data.filter((a: { hostname: string }) => a.hostname.startsWith('order-'));
      expect(mine.slice(0, 2).map((a: { hostname: string; status: string }) => `${a.hostname} ${a.status}`)).toEqual(['order-db-01 firing', 'order-db-01 firing']);
      const firstRest = all.body.result.data.findIndex((a: { status: string }) => a.status !== 'firing');
      expect(all.body.result.data.slice(firstRest).every((a: { status: string }) => a.status !== 'firing')).toBe(true);
      expect(all.body.result.count).toBe(await t.count('alerts'));

      // SPEC's sort and the default stay plain createdAt desc.
      for (const sort of [undefined, { by: 'createdAt', direction: 'desc' }]) {
        const r = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageSize: 5, filter: { serverId: web._id }, ...(sort ? { sort } : {}) } });
        expect(r.body.result.data.map((a: { _id: string }) => a._id)).toEqual(newestFirst(() => true).slice(0, 5).map((i) => ids[i]));
      }
      // Refused: firing ascending, an unknown key (naming firing among the keys), a bad filter with the firing sort.
      const asc = await list({ sort: { by: 'firing', direction: 'asc' } });
      expect(asc.status).toBe(400);
      expect(asc.body).toMatchObject({ field: 'sort.direction' });
      expect(asc.body.message).toMatch(/firing/);
      const unknown = await list({ sort: { by: 'urgency', direction: 'desc' } });
      expect(unknown.status).toBe(400);
      expect(unknown.body.field).toBe('urgency');
      expect(unknown.body.message).toMatch(/Unknown sort field "urgency" \(sortable: .*firing/);
      for (const [filter, field] of [[{ status: { contains: 'fir' } }, 'status'], [{ serverId: 'x' }, 'serverId'], [{ nope: 1 }, 'nope']] as const) {
        const r = await list({ filter });
        expect(r.status, JSON.stringify(filter)).toBe(400);
        expect(r.body.field).toBe(field);
      }
      await t.database.query('delete from alerts where server_id in ($1, $2)', [web._id, db._id]);
    });

    it('sort firing places the boundary by an exact count when more firing alerts match than lists count', async () => {
      const s = await server('order-many-01');
      await t.database.query(
        `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, created_at)
         select $1, 'bulk-' || g, 'order-many-01', '10.0.0.2', 'service_down', 'service_down_alert', 'info', case when g <= 1050 then 'firing' else 'resolved' end,
                timestamptz '2024-06-01' + g * interval '1 minute'
         from generate_series(1, 1060) g`,
        [s._id],
      );
      const minutes = (p: { body: { result: { data: { createdAt: string }[] } } }) => p.body.result.data.map((a) => (Date.parse(a.createdAt) - Date.parse('2024-06-01T00:00:00Z')) / 60_000);
      const page = (pageNumber: number) => t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber, pageSize: 25, sort: { by: 'firing', direction: 'desc' }, filter: { serverId: s._id } } });
      const last = await page(42);
      expect(minutes(last)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
      const after = await page(43);
      expect(minutes(after)).toEqual(Array.from({ length: 10 }, (_, i) => 1060 - i));
      for (const p of [last, after]) {
        expect(p.body.result.count).toBe(1060);
        expect(p.body.result.countEstimated).toBeUndefined();
      }
      await t.database.query('delete from alerts where server_id = $1', [s._id]);
    });

    it('pages a filter with many matches (walking the sort index) in the same order as a few', async () => {
      const s = await server('many-alerts-01');
      await t.database.query(
        `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, created_at)
         select $1, 'bulk-' || g, 'many-alerts-01', '10.0.0.1', 'service_down', 'service_down_alert', 'info', 'resolved', timestamptz '2024-01-01' + g * interval '1 minute'
         from generate_series(1, 5100) g`,
        [s._id],
      );
      // Status alone is counted exactly (alert_counts); with a server too, exactly up to 1,000 and
      // then the planner's estimate, marked (docs/decisions.md "Counts").
      const counted = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 3, pageSize: 100, filter: { status: 'resolved', hostname: { eq: 'many-alerts-01' } } } });
      expect(counted.body.result.count).toBe(5100);
      expect(counted.body.result.countEstimated).toBeUndefined();
      const page = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 3, pageSize: 100, filter: { serverId: s._id, status: 'resolved' } } });
      expect(page.body.result.countEstimated).toBe(true);
      expect(page.body.result.count).toBeGreaterThan(1000);
      for (const p of [counted, page]) {
        const minutes = p.body.result.data.map((a: { createdAt: string }) => (Date.parse(a.createdAt) - Date.parse('2024-01-01T00:00:00Z')) / 60_000);
        expect(minutes).toEqual(Array.from({ length: 100 }, (_, i) => 5100 - 200 - i));
      }
      const beyond = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 100, pageSize: 100, filter: { serverId: s._id } } });
      expect(beyond.body.result).toMatchObject({ data: [], countEstimated: true });
      expect(beyond.body.result.count).toBeGreaterThan(1000);
      const few = await t.call('POST', '/api/alerts/all', { cookie: admin, body: { pageNumber: 1, pageSize: 100, filter: { serverId: s._id, createdAt: { between: ['2024-01-01T00:01:00Z', '2024-01-01T02:00:00Z'] } } } });
      expect(few.body.result.count).toBe(120);
      expect(few.body.result.countEstimated).toBeUndefined();
      await t.database.query('delete from alerts where server_id = $1', [s._id]);
    });

    it('status, hostname and search counts (kept by triggers, not by counting matches) stay exact through inserts, updates, deletes and compaction', async () => {
      const s = await server('counted-web-01');
      const o = await server('counted-db-01');
      await defaults(s._id);
      const list = (filter: Record<string, unknown>) => {
        const { search, ...rest } = filter;
        return t.call('POST', '/api/alerts/all', { cookie: admin, body: { filter: rest, ...(search ? { search } : {}) } });
      };
      // Every total the counts answer, checked against counting the alerts themselves.
      const check = async () => {
        const exact = async (where: string) => Number((await t.database.query<{ n: number }>(`select count(*)::int as n from alerts where ${where}`))[0]!.n);
        const cases: [Record<string, unknown>, string][] = [
          [{}, 'true'],
          [{ status: 'firing' }, `status = 'firing'`],
          [{ status: ['snoozed', 'resolved'] }, `status in ('snoozed', 'resolved')`],
          [{ hostname: { contains: 'COUNTED-' } }, `hostname_lc like '%counted-%'`],
          [{ hostname: 'counted-db-01', status: 'resolved' }, `hostname = 'counted-db-01' and status = 'resolved'`],
          [{ search: 'COUNTED-DB' }, `search_lc like '%counted-db%'`],
          [{ search: '10.9.9.9', status: 'firing' }, `search_lc like '%10.9.9.9%' and status = 'firing'`],
          [{ search: 'service_down', hostname: { contains: 'db-0' } }, `search_lc like '%service_down%' and hostname_lc like '%db-0%'`],
          [{ search: '50%_' }, `false`],
        ];
        for (const [filter, where] of cases) expect((await list(filter)).body.result.count, JSON.stringify(filter)).toBe(await exact(where));
      };
      await check();
      const fired = await fire(s._id);
      await t.database.query(
        `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status)
         select $1, 'svc-' || g, 'counted-db-01', '10.9.9.9', 'service_down', 'service_down_alert', 'critical', case when g % 2 = 0 then 'resolved' else 'firing' end
         from generate_series(1, 40) g`,
        [o._id],
      );
      await check();
      expect((await list({ hostname: 'counted-db-01', status: 'firing' })).body.result.count).toBe(20);
      expect((await t.call('PATCH', `/api/alerts/${fired}`, { cookie: admin, body: { status: 'snoozed', log: 'later' } })).status).toBe(200);
      await t.database.query(`update alerts set status = 'resolved' where hostname = 'counted-db-01' and subject in ('svc-1', 'svc-3')`);
      await check();
      expect((await list({ hostname: 'counted-db-01', status: 'firing' })).body.result.count).toBe(18);
      await t.database.query(`update alerts set hostname = 'counted-db-02' where hostname = 'counted-db-01' and subject = 'svc-5'`);
      expect((await t.call('DELETE', `/api/alerts/${fired}`, { cookie: admin })).status).toBe(200);
      await check();
      const evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: false, staleAfterS: 60 }, quiet);
      await evaluator.compactCounts();
      await check();
      const rows = await t.database.query<{ n: number }>(`select count(*)::int as n from alert_counts where hostname like 'counted-%' group by hostname, status, search_lc having count(*) > 1`);
      expect(rows).toEqual([]);
      // Deleting a server deletes its alerts by cascade: its counts go with them.
      expect((await t.call('DELETE', `/api/servers/${o._id}`, { cookie: admin })).status).toBe(200);
      await check();
      expect((await list({ hostname: 'counted-db-01' })).body.result.count).toBe(0);
    });

    it('gets an alert with its timeline; an update needs a status and a note and records who wrote it', async () => {
      const s = await server();
      await defaults(s._id);
      const id = await fire(s._id);
      const got = await t.call('GET', `/api/alerts/${id}`, { cookie: cookies.get('user') });
      expect(got.status).toBe(200);
      expect(got.body.result.timeline).toEqual([{ _id: expect.any(String), type: 'firing', timestamp: expect.any(String), note: null, by: null }]);
      expect(got.body.result.description).toContain('97.0%');

      const before = await snapshot();
      for (const [body, message] of [
        [{ log: 'x' }, 'status: Update Status'],
        [{ status: 'gone', log: 'x' }, 'status: Update Status'],
        [{ status: 'resolved' }, 'log: Add Notes'],
        [{ status: 'resolved', log: '   ' }, 'log: Add Notes'],
        [{ status: 'firing', log: 'x', snoozeSeconds: 600 }, 'snoozeSeconds: snoozeSeconds goes only with status snoozed'],
        [{ status: 'snoozed', log: 'x', snoozeSeconds: 5 }, 'snoozeSeconds: A snooze lasts at least 60 seconds'],
      ] as const) {
        const r = await t.call('PATCH', `/api/alerts/${id}`, { cookie: admin, body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.message).toBe(message);
      }
      expect(await snapshot()).toEqual(before);

      const snooze = await t.call('PATCH', `/api/alerts/${id}`, { cookie: cookies.get('user'), body: { status: 'snoozed', log: 'Looking into it', snoozeSeconds: 3600 } });
      expect(snooze.status, JSON.stringify(snooze.body)).toBe(200);
      expect(snooze.body.result.status).toBe('snoozed');
      expect(new Date(snooze.body.result.snoozedUntil).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
      const note = await t.call('PATCH', `/api/alerts/${id}`, { cookie: cookies.get('sysadmin'), body: { status: 'snoozed', log: 'Still on it' } });
      expect(note.body.result.snoozedUntil).toBeNull();
      const resolved = await t.call('PATCH', `/api/alerts/${id}`, { cookie: cookies.get('user'), body: { status: 'resolved', log: 'Killed the **runaway** job' } });
      expect(resolved.body.result).toMatchObject({ status: 'resolved', resolvedAt: expect.any(String) });
      const again = await t.call('PATCH', `/api/alerts/${id}`, { cookie: admin, body: { status: 'resolved', log: 'Post-mortem filed' } });
      expect(again.body.result.timeline.map((e: { type: string; note: string; by: { username: string } | null }) => [e.type, e.note, e.by?.username ?? null])).toEqual([
        ['firing', null, null],
        ['snoozed', 'Looking into it', 'user-alerts'],
        ['snoozed', 'Still on it', 'sysadmin-alerts'],
        ['resolved', 'Killed the **runaway** job', 'user-alerts'],
        ['playbook_action', 'Post-mortem filed', 'admin-alerts'],
      ]);
      const outbox = await t.database.query<{ transition: string }>('select transition from alert_outbox where alert_id = $1 order by created_at', [id]);
      expect(outbox.map((o) => o.transition)).toEqual(['firing', 'resolved']);
      expect((await t.call('GET', '/api/alerts/00000000-0000-4000-8000-000000000000', { cookie: admin })).status).toBe(404);
      expect((await t.call('GET', '/api/alerts/nope', { cookie: admin })).status).toBe(404);
    });

    it('reopening a resolved alert while another is open for the same rule is a 409', async () => {
      const s = await server();
      await defaults(s._id);
      const first = await fire(s._id);
      await t.call('PATCH', `/api/alerts/${first}`, { cookie: admin, body: { status: 'resolved', log: 'done' } });
      const second = await fire(s._id);
      expect(second).not.toBe(first);
      const reopen = await t.call('PATCH', `/api/alerts/${first}`, { cookie: admin, body: { status: 'firing', log: 'not done' } });
      expect(reopen.status).toBe(409);
      expect((await t.call('GET', `/api/alerts/${first}`, { cookie: admin })).body.result.status).toBe('resolved');
    });

    it('deletes an alert with its timeline; deleting a server removes its config, rules and alerts', async () => {
      const s = await server();
      await defaults(s._id);
      const id = await fire(s._id);
      expect((await t.call('DELETE', `/api/alerts/${id}`, { cookie: cookies.get('user') })).status).toBe(403);
      expect((await t.call('DELETE', `/api/alerts/${id}`, { cookie: cookies.get('sysadmin') })).body).toEqual({ result: { _id: id } });
      expect(await t.database.query('select * from alert_events where alert_id = $1', [id])).toEqual([]);
      await fire(s._id);
      expect((await t.call('DELETE', `/api/servers/${s._id}`, { cookie: admin })).status).toBe(200);
      for (const table of ['alert_configs', 'alert_rules', 'alerts', 'alert_pending']) {
        expect(await t.database.query(`select * from ${table} where server_id = $1`, [s._id]), table).toEqual([]);
      }
    });
  });

  it('role matrix: everyone reads and triages; admin and sysadmin write rules and groups and delete alerts', async () => {
    const s = await server();
    const config = await defaults(s._id);
    const zero = '00000000-0000-4000-8000-000000000000';
    const calls: { name: string; method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: unknown; expect: Record<Who, number> }[] = [
      { name: 'list alerts', method: 'POST', url: '/api/alerts/all', body: {}, expect: { admin: 200, sysadmin: 200, user: 200, anonymous: 401 } },
      { name: 'get alert', method: 'GET', url: `/api/alerts/${zero}`, expect: { admin: 404, sysadmin: 404, user: 404, anonymous: 401 } },
      { name: 'update alert', method: 'PATCH', url: `/api/alerts/${zero}`, body: { status: 'resolved', log: 'x' }, expect: { admin: 404, sysadmin: 404, user: 404, anonymous: 401 } },
      { name: 'delete alert', method: 'DELETE', url: `/api/alerts/${zero}`, expect: { admin: 404, sysadmin: 404, user: 403, anonymous: 401 } },
      { name: 'get config', method: 'POST', url: '/api/alert-config/get-alert-config/all', body: {}, expect: { admin: 200, sysadmin: 200, user: 200, anonymous: 401 } },
      { name: 'create defaults', method: 'POST', url: `/api/alert-config/create-default-alert-rules/${s._id}`, expect: { admin: 409, sysadmin: 409, user: 403, anonymous: 401 } },
      { name: 'update config', method: 'PATCH', url: `/api/alert-config/update-alert-config/${config._id}`, body: config, expect: { admin: 200, sysadmin: 200, user: 403, anonymous: 401 } },
      { name: 'reset config', method: 'PATCH', url: `/api/alert-config/reset-alert-rules/${config._id}`, expect: { admin: 200, sysadmin: 200, user: 403, anonymous: 401 } },
      { name: 'list groups', method: 'POST', url: '/api/notification-groups/all', body: {}, expect: { admin: 200, sysadmin: 200, user: 200, anonymous: 401 } },
      { name: 'create group', method: 'POST', url: '/api/notification-groups', body: {}, expect: { admin: 400, sysadmin: 400, user: 403, anonymous: 401 } },
      { name: 'update group', method: 'PATCH', url: `/api/notification-groups/${zero}`, body: { name: 'x' }, expect: { admin: 404, sysadmin: 404, user: 403, anonymous: 401 } },
      { name: 'delete group', method: 'DELETE', url: `/api/notification-groups/${zero}`, expect: { admin: 404, sysadmin: 404, user: 403, anonymous: 401 } },
    ];
    for (const c of calls) {
      for (const who of everyone) {
        const res = await t.call(c.method, c.url, { cookie: cookies.get(who), body: c.body });
        expect(res.status, `${c.name} as ${who}: ${JSON.stringify(res.body)}`).toBe(c.expect[who]);
      }
    }
  });
});
