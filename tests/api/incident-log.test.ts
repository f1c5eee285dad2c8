import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertEvaluator } from '../../server/alerting/evaluator';
import { servers } from '../../server/db/schema';
import type { CommandHistoryEntry } from '../../server/contract/command-history';
import { allCommands } from '../../commands/index';
import type { AnyCommand } from '../../commands/define-command';
import { rerunnableLine } from '../../commands/rerunnable-line';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { backends, startTestApp, type TestApp } from './harness';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const defs = new Map<string, AnyCommand>(allCommands.map((c) => [c.id, c as AnyCommand]));
const find = (id: string) => defs.get(id);

/**
 * A scripted incident read back as the team's log (issue 24 §4): History and the incident report
 * name things as people do, one row per happening, the evaluator's events in the same stream,
 * sign-ins hidden unless asked for, an undo shown as an undo; the stored line still re-runs.
 */
describe.each(await backends())('the incident log on $name', (backend) => {
  let t: TestApp;
  let cookie: string;
  let api01: string;
  let alertId: string;
  let from: string;
  let resolveRecord: string;

  /** A palette run's call: its headers carry the command, the line the registry builds, the source and a run id. */
  const run = async (command: string, rawInput: Record<string, unknown>, method: 'PATCH' | 'POST', url: string, body: unknown, extra: Record<string, string> = {}) => {
    const line = rerunnableLine(find(command)!, rawInput);
    expect(line, `${command} has a re-runnable line`).not.toBeNull();
    const res = await t.call(method, url, {
      cookie,
      body,
      headers: { 'x-opsdeck-command': command, 'x-opsdeck-command-line': encodeURIComponent(line!), 'x-opsdeck-source': 'palette', 'x-opsdeck-run': crypto.randomUUID(), ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.headers['x-opsdeck-record'] as string;
  };
  const history = async (filter: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/command-history/all', { cookie, body: { pageNumber: 1, pageSize: 100, sort: { by: 'createdAt', direction: 'asc' }, filter: { createdAt: { between: [from, new Date(Date.now() + 60_000).toISOString()] }, ...filter } } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.result.data as CommandHistoryEntry[];
  };
  const line = (e: CommandHistoryEntry) => `${e.username}: ${e.displayLine ?? e.command}${e.undoOf ? ' (undo)' : ''}`;

  beforeAll(async () => {
    t = await startTestApp(backend);
    const ann = await t.addUser({ role: 'admin', username: 'ann' });
    from = new Date(Date.now() - 900_000).toISOString();
    cookie = await t.signIn(ann.email, ann.password);
    // Two hosts as an agent would leave them: api-01 hot, cache-01 calm; the evaluator gives them rules.
    const [a, c] = await t.database.db
      .insert(servers)
      .values([
        { hostname: 'api-01', ipaddress: '10.96.0.1', operatingSystem: 'linux', isAgentConfigured: true, isAgentInstalled: true, state: 'up', cpuUsage: 97, memoryUsage: 20, diskUsage: 20 },
        { hostname: 'cache-01', ipaddress: '10.96.0.2', operatingSystem: 'linux', isAgentConfigured: true, isAgentInstalled: true, state: 'up', cpuUsage: 5, memoryUsage: 20, diskUsage: 20 },
      ])
      .returning();
    api01 = a!.id;
    let clock = Date.now() - 400_000;
    const scrape = () => t.database.query(`update servers set last_scraped_at = $1 where id = any($2::uuid[])`, [new Date(clock), [a!.id, c!.id]]);
    const evaluator = new AlertEvaluator(t.database, { enabled: false, evalIntervalS: 15, autoDefaults: true, staleAfterS: 60 }, quiet, () => clock);
    await evaluator.ensureDefaults();
    // The condition seen on the first tick, fired once it held for the rule's 300 s.
    for (const step of [0, 300_000]) {
      clock += step;
      await scrape();
      await evaluator.tick();
    }
    await evaluator.stop();
    const [row] = await t.database.query<{ id: string }>(`select id from alerts where server_id = $1 and alertname = 'high_cpu_usage'`, [api01]);
    alertId = row!.id;

    // The operator's runs, as the palette sends them (entities picked by id).
    await run('alert.ack', { alert: alertId }, 'POST', `/api/alerts/${alertId}/ack`, {});
    resolveRecord = await run('alert.resolve', { alert: alertId, note: 'Restarted the worker' }, 'PATCH', `/api/alerts/${alertId}`, { status: 'resolved', log: 'Restarted the worker' });
    await run('alert.reopen', { alert: alertId, note: 'Undo of the previous change' }, 'PATCH', `/api/alerts/${alertId}`, { status: 'firing', log: 'Undo of the previous change' }, { 'x-opsdeck-undo-of': resolveRecord });
    await run('silence.create', { matchers: [{ name: 'hostname', op: '=', value: 'cache-01' }], for: 7200, comment: 'Cache rebuild' }, 'POST', '/api/silences', {
      matchers: [{ name: 'hostname', op: '=', value: 'cache-01' }],
      comment: 'Cache rebuild',
      durationSeconds: 7200,
    });
  });
  afterAll(async () => t.close());

  it('History names things as people do, one row per happening, the evaluator in the same stream, sign-ins hidden unless asked for', async () => {
    const shown = await history({ kind: ['command', 'system'] });
    expect(shown.map(line)).toEqual([
      'Opsdeck: alert.fired high_cpu_usage@api-01',
      'ann: alert.ack high_cpu_usage@api-01',
      'ann: alert.resolve high_cpu_usage@api-01 --note "Restarted the worker"',
      'ann: alert.reopen high_cpu_usage@api-01 --note "Undo of the previous change" (undo)',
      'ann: silence.create hostname=cache-01 --for 2h --comment "Cache rebuild"',
    ]);
    // System events alone, and the sign-in when asked for.
    expect((await history({ kind: 'system' })).map(line)).toEqual(['Opsdeck: alert.fired high_cpu_usage@api-01']);
    expect((await history({ kind: ['signin'] })).map((e) => `${e.username}: ${e.command} ${e.outcome}`)).toEqual(['ann: POST /api/auth/signin ok']);
    expect((await t.call('POST', '/api/command-history/all', { cookie, body: { filter: { kind: ['everything'] } } })).body).toMatchObject({ statusCode: 400, field: 'kind' });
  });

  it('the stored line still re-runs exactly: by id, whatever the alert is called later', async () => {
    const [resolve] = (await history({ kind: ['command'] })).filter((e) => e._id === resolveRecord);
    expect(resolve!.commandLine).toBe(`alert.resolve --alert ${alertId} --note "Restarted the worker"`);
    expect(parseCommandLine(resolve!.commandLine!, find).input).toEqual({ alert: alertId, note: 'Restarted the worker' });
    // The display line is a line too: recalled with ↑ it parses, naming the alert by its ref.
    expect(parseCommandLine(resolve!.displayLine!, find).input).toEqual({ alert: 'high_cpu_usage@api-01', note: 'Restarted the worker' });
  });

  it('the incident report reads the same: names, one row per happening, the undo as an undo', async () => {
    const res = await t.call('GET', `/api/incident-report?${new URLSearchParams({ from, to: new Date(Date.now() + 60_000).toISOString(), serverId: api01 })}`, { cookie });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const md = res.body.result.markdown as string;
    const table = md.slice(md.indexOf('## Timeline'));
    const rows = table
      .split('\n')
      .filter((l) => /^\| \d{4}-/.test(l))
      .map((l) => l.split(' | ').slice(1).join(' | '));
    expect(rows).toEqual([
      'Opsdeck | Alert high\\_cpu\\_usage on api-01 fired | Active |',
      // A ref reads as an address to GFM: a code span keeps it text (and unlinked).
      'ann | alert.ack `high_cpu_usage@api-01` | ok |',
      'ann | alert.resolve `high_cpu_usage@api-01` --note "Restarted the worker" | ok |',
      'ann | undo of alert.resolve `high_cpu_usage@api-01` --note "Restarted the worker" | ok |',
    ]);
  });
});
