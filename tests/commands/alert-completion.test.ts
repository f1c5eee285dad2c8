import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCommands, createAppRegistry } from '../../commands';
import { completeCommandLine } from '../../commands/complete-command-line';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { completionValues } from '../../src/app/command-host/entities';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { appContext } from './app-context';

/**
 * Issue 24 §5: Tab on an alert argument completes to the open alerts of the hosts whose name
 * starts with what was typed, named `alertname@host` (never an id), Active first and newest
 * first; the completed line runs on that alert. Against the real API (PGlite), through the same
 * lookup the command line uses.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
let t: TestApp;
let admin: { _id: string; username: string; role: 'admin'; cookie: string };
const registry = createAppRegistry();
const ids: Record<string, string> = {};

const complete = (line: string) => completeCommandLine(line, allCommands, (arg, prefix) => completionValues(appContext(t, registry, admin).api, admin.role, arg, prefix));
const run = async (line: string) => {
  const { id, input } = parseCommandLine(line, registry.get);
  return registry.dispatch(id, input, { source: 'cmdline', ctx: appContext(t, registry, admin) });
};

beforeAll(async () => {
  const [pglite] = await backends();
  t = await startTestApp(pglite!);
  const a = await t.addUser({ role: 'admin', username: 'tab-admin' });
  admin = { _id: a._id, username: 'tab-admin', role: 'admin', cookie: await t.signIn(a.email, a.password) };
  const server = (await t.call('POST', '/api/servers', { cookie: admin.cookie, body: { hostname: 'db-01', ipaddress: '10.89.0.1', operating_system: 'linux' } })).body.result;
  const alert = async (key: string, hostname: string, alertname: string, status: string, minutesAgo: number, service: string | null = null) => {
    const [row] = await t.database.query<{ id: string }>(
      `insert into alerts (server_id, subject, hostname, instance, alertname, type, severity, status, summary, service, created_at)
       values ($1, $2, $3, '10.89.0.1', $4, 'resouce_alert', 'critical', $5, $6, $7, now() - make_interval(mins => $8)) returning id`,
      [server._id, key, hostname, alertname, status, `${alertname} on ${hostname}`, service, minutesAgo],
    );
    ids[key] = row!.id;
  };
  await alert('db01-cpu', 'db-01', 'high_cpu_usage', 'firing', 30);
  await alert('db02-down', 'db-02', 'instance_down', 'firing', 5);
  // Newer, but resolved: the old picker's first row.
  await alert('db02-cpu-resolved', 'db-02', 'high_cpu_usage', 'resolved', 1);
  await alert('db01-disk-snoozed', 'db-01', 'high_disk_usage', 'snoozed', 2);
  await alert('db03-nginx', 'db-03', 'service_down', 'firing', 10, 'nginx');
  await alert('db03-redis', 'db-03', 'service_down', 'firing', 12, 'redis');
  // A host that only contains "db", and one of another name.
  await alert('mongodb-cpu', 'mongodb-1', 'high_cpu_usage', 'firing', 3);
  await alert('web-cpu', 'web-01', 'high_cpu_usage', 'firing', 4);
}, 60_000);
afterAll(async () => t?.close());

describe('Tab on an alert argument', () => {
  it('lists the open alerts of the hosts starting with the word, by name and host, Active first and newest first', async () => {
    const r = await complete('alert.snooze db');
    expect(r.candidates).toEqual(['instance_down@db-02', 'service_down@db-03:nginx', 'service_down@db-03:redis', 'high_cpu_usage@db-01', 'high_disk_usage@db-01']);
    expect(r.candidates.join(' ')).not.toMatch(UUID);
    // No shared start: the line stays as typed, the candidates are printed.
    expect(r.line).toBe('alert.snooze db');
  });

  it('completes a unique match, and a shared start, in place', async () => {
    expect((await complete('alert.snooze db-02')).line).toBe('alert.snooze instance_down@db-02 ');
    expect((await complete('alert.resolve db-03')).line).toBe('alert.resolve service_down@db-03:');
    expect((await complete('alert.resolve service_down@db-03:n')).line).toBe('alert.resolve service_down@db-03:nginx ');
    // By the alert's name too, and after --alert.
    expect((await complete('alert.ack --alert high_d')).line).toBe('alert.ack --alert high_disk_usage@db-01 ');
    expect((await complete('alert.ack web')).line).toBe('alert.ack high_cpu_usage@web-01 ');
    expect((await complete('alert.ack nothing-like-this')).candidates).toEqual([]);
  });

  it('the completed line runs on that alert', async () => {
    // Two open alerts of one name on one host: the ref asks for the one meant, naming both.
    await expect(run('alert.ack service_down@db-03')).rejects.toThrow('2 open alerts are service_down@db-03: `service_down@db-03:nginx`, `service_down@db-03:redis`. Add the service, mount point or volume after a colon.');
    await run('alert.snooze instance_down@db-02 --note "rebooting" --for 30m');
    await run('alert.resolve service_down@db-03:nginx --note "restarted"');
    const status = async (key: string) => (await t.call('GET', `/api/alerts/${ids[key]}`, { cookie: admin.cookie })).body.result.status;
    expect([await status('db02-down'), await status('db03-nginx'), await status('db03-redis'), await status('db02-cpu-resolved')]).toEqual(['snoozed', 'resolved', 'firing', 'resolved']);
    // Once one is resolved, the name and host are enough again; a ref of resolved ones names the newest.
    expect((await run('alert.ack service_down@db-03')).data).toMatchObject({ _id: ids['db03-redis'] });
    expect((await run('alert.show high_cpu_usage@db-02')).data).toMatchObject({ _id: ids['db02-cpu-resolved'] });
  });
});
