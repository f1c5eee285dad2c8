import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import { parseDuration } from '../../server/contract/duration';
import { bulkActions, changeAll, collectMatching, confirmQuestion, describeFilter, matchingListFilter } from '../../commands/alerts/matching-filter';
import type { CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import type { Alert } from '../../server/contract/alerts';
import { ApiError, type Api } from '../../src/api/client';
import { fakeAlert } from './fake-server';

const alert = (i: number, status: Alert['status'] = 'firing'): Alert =>
  fakeAlert({
    _id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    serverId: 's',
    hostname: `web-${i}`,
    alertname: 'high_disk_usage',
    status,
    mountpoint: '/',
    value: 97,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    updatedAt: new Date().toISOString(),
  });

/**
 * An alerts API over an in-memory list that honours the list filter the commands send (status
 * eq/in, hostname contains, severity eq) and paging, and applies PATCHes, so a command that
 * pages while it changes statuses would visibly skip alerts.
 */
function fakeAlertsApi(alerts: Alert[]) {
  const calls: { method: string; path: string; body?: any }[] = [];
  const matches = (a: Alert, filter: Record<string, any> = {}) =>
    Object.entries(filter).every(([field, v]) => {
      const value = field === 'acknowledged' ? a.acknowledgement !== null : (a as any)[field];
      if (v.eq !== undefined) return value === v.eq;
      if (v.in) return v.in.includes(value);
      if (v.contains !== undefined) return String(value).toLowerCase().includes(v.contains.toLowerCase());
      return value === v;
    });
  const api = {
    post: vi.fn(async (path: string, body: any) => {
      calls.push({ method: 'POST', path, body });
      const acked = /^alerts\/(.+)\/(ack|unack)$/.exec(path);
      if (acked) {
        const a = alerts.find((x) => x._id === acked[1])!;
        a.acknowledgement = acked[2] === 'ack' ? { by: { _id: 'u', username: 'ann' }, note: body.note ?? null, at: '', until: null } : null;
        return { result: { ...a, timeline: [] } };
      }
      if (path !== 'alerts/all') return { result: {} };
      const all = alerts.filter((a) => matches(a, body.filter));
      const start = (body.pageNumber - 1) * body.pageSize;
      return { result: { data: all.slice(start, start + body.pageSize), count: all.length } };
    }),
    patch: vi.fn(async (path: string, body: any) => {
      calls.push({ method: 'PATCH', path, body });
      const a = alerts.find((x) => path === `alerts/${x._id}`)!;
      a.status = body.status;
      return { result: { ...a, timeline: [] } };
    }),
    get: vi.fn(async () => ({ result: {} })),
    delete: vi.fn(async () => ({ result: {} })),
  } as unknown as Api;
  return { api, calls };
}

function context(api: Api, confirm: (r: { title: string; message: string }) => boolean = () => true): CommandContext & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    api,
    user: { _id: '00000000-0000-4000-8000-000000000001', username: 'ann', email: 'ann@x', role: 'user' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async (r) => {
      asked.push(r.message);
      return confirm(r);
    }),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
}

describe('the matching filter', () => {
  it('turns host, name, severity and status into the list filter; without a status it takes the open ones', () => {
    expect(matchingListFilter({ host: 'web', name: 'disk', severity: 'critical' }, bulkActions.resolve)).toEqual({
      hostname: { contains: 'web' },
      alertname: { contains: 'disk' },
      severity: { eq: 'critical' },
      status: { in: ['firing', 'snoozed'] },
    });
    expect(matchingListFilter({ status: 'snoozed' }, bulkActions.resolve)).toEqual({ status: { eq: 'snoozed' } });
  });

  it('refuses an empty filter and a status the action cannot change', () => {
    expect(() => matchingListFilter({}, bulkActions.resolve)).toThrow(/at least one of --host/);
    expect(() => matchingListFilter({ status: 'resolved' }, bulkActions.resolve)).toThrow('Resolve works on Active or Snoozed alerts, not Resolved ones');
    expect(() => matchingListFilter({ status: 'resolved' }, bulkActions.snooze)).toThrow(CommandError);
  });

  it('says the count and the filter in words', () => {
    expect(confirmQuestion(bulkActions.resolve, 12)).toBe('Resolve 12 alerts?');
    expect(confirmQuestion(bulkActions.snooze, 1)).toBe('Snooze 1 alert?');
    expect(describeFilter({ host: 'web', severity: 'critical', status: 'firing' })).toBe('host contains “web”, severity critical, status Active');
  });

  it('collects every page before changing anything, so a status filter does not skip alerts', async () => {
    const alerts = Array.from({ length: 230 }, (_, i) => alert(i));
    const { api } = fakeAlertsApi(alerts);
    const found = await collectMatching(api, { status: { eq: 'firing' } });
    expect(found).toHaveLength(230);
    const result = await changeAll(found, async (a) => void (a.status = 'resolved'));
    expect(result).toEqual({ ok: 230, failed: [] });
  });

  it('reports failures one by one without stopping', async () => {
    const alerts = [alert(1), alert(2), alert(3)];
    const result = await changeAll(alerts, async (a) => {
      if (a.hostname === 'web-2') throw new Error('conflict');
    });
    expect(result.ok).toBe(2);
    expect(result.failed.map((f) => f.error)).toEqual(['conflict']);
  });

  it('reads durations', () => {
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('2d')).toBe(172_800);
    expect(parseDuration('45')).toBe(2700);
    expect(parseDuration('soon')).toBeUndefined();
  });
});

describe('alerts.resolve-matching and alerts.snooze-matching through the gate', () => {
  it('previews the count in the confirmation, then resolves every match with the note (across pages)', async () => {
    const alerts = [...Array.from({ length: 120 }, (_, i) => alert(i)), { ...alert(500), hostname: 'db-1' }, alert(501, 'resolved')];
    const { api, calls } = fakeAlertsApi(alerts);
    const ctx = context(api);
    const result = await createAppRegistry().run('alerts.resolve-matching', { host: 'web', note: 'disk cleaned' }, { source: 'cmdline', ctx });
    expect(ctx.asked).toEqual(['Resolve 120 alerts? (host contains “web”)']);
    const patches = calls.filter((c) => c.method === 'PATCH');
    expect(patches).toHaveLength(120);
    expect(new Set(patches.map((p) => p.path)).size).toBe(120);
    expect(patches[0]!.body).toEqual({ status: 'resolved', log: 'disk cleaned' });
    expect(alerts.find((a) => a.hostname === 'db-1')!.status).toBe('firing');
    expect(result.message).toBe('Resolved 120 alerts matching host contains “web”.');
  });

  it('changes nothing when the person declines, and says so when nothing matches', async () => {
    const { api, calls } = fakeAlertsApi([alert(1), alert(2)]);
    const declined = await createAppRegistry()
      .run('alerts.snooze-matching', { severity: 'critical', note: 'later', for: '2h' }, { source: 'cmdline', ctx: context(api, () => false) })
      .catch((e: CommandError) => e);
    expect((declined as CommandError).outcome).toBe('cancelled');
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);
    const ctx = context(api);
    await expect(createAppRegistry().run('alerts.resolve-matching', { host: 'nothing-here', note: 'x' }, { source: 'cmdline', ctx })).rejects.toThrow('No open alerts match host contains “nothing-here”');
    expect(ctx.asked).toEqual([]);
  });

  it('snoozes with the duration in seconds and requires a note', async () => {
    const alerts = [alert(1), alert(2, 'snoozed')];
    const { api, calls } = fakeAlertsApi(alerts);
    const ctx = context(api);
    await createAppRegistry().run('alerts.snooze-matching', { host: 'web', note: 'maintenance window', for: '30m' }, { source: 'cmdline', ctx });
    expect(ctx.asked[0]).toBe('Snooze 2 alerts? (host contains “web”; for 30m)');
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { status: 'snoozed', log: 'maintenance window', snoozeSeconds: 1800 },
      { status: 'snoozed', log: 'maintenance window', snoozeSeconds: 1800 },
    ]);
    await expect(createAppRegistry().dispatch('alerts.resolve-matching', { host: 'web' }, { source: 'cmdline', ctx })).rejects.toThrow('Notes: Add Notes.');
    await expect(createAppRegistry().run('alerts.snooze-matching', { host: 'web', note: 'x', for: 'a while' }, { source: 'cmdline', ctx })).rejects.toThrow(/duration like 30m/);
  });
});

describe('the single-alert commands', () => {
  /** An alerts API with one stored alert (and its timeline) that answers get, search, patch and delete. */
  function oneAlertApi(a: Alert) {
    const calls: { method: string; path: string; body?: any }[] = [];
    const api = {
      get: vi.fn(async (path: string) => {
        calls.push({ method: 'GET', path });
        if (path === `alerts/${a._id}`) return { result: { ...a, timeline: [] } };
        throw new ApiError(404, { message: 'No alert' });
      }),
      post: vi.fn(async (path: string, body: any) => {
        calls.push({ method: 'POST', path, body });
        if (path !== 'alerts/all') return { result: {} };
        const hit = `${a.hostname} ${a.instance} ${a.alertname}`.includes(String(body.search ?? '').toLowerCase());
        return { result: { data: hit ? [a] : [], count: hit ? 1 : 0 } };
      }),
      patch: vi.fn(async (path: string, body: any) => {
        calls.push({ method: 'PATCH', path, body });
        return { result: { ...a, status: body.status, timeline: [] } };
      }),
      delete: vi.fn(async (path: string) => {
        calls.push({ method: 'DELETE', path });
        return { result: { _id: a._id } };
      }),
    } as unknown as Api;
    return { api, calls };
  }
  const run = (id: string, input: unknown, api: Api, confirm = true) => createAppRegistry().dispatch(id, input, { source: 'cmdline', ctx: context(api, () => confirm) });

  it('resolve, reopen and snooze send the status with the note (snooze with its duration), found by words or id', async () => {
    const a = alert(7);
    const { api, calls } = oneAlertApi(a);
    expect((await run('alert.resolve', { alert: 'web-7', note: 'fixed' }, api)).message).toBe('Resolved **high disk usage on web-7**.');
    await run('alert.reopen', { alert: a._id, note: 'back' }, api);
    await run('alert.snooze', { alert: a._id, note: 'later', for: '1h30m' }, api);
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { status: 'resolved', log: 'fixed' },
      { status: 'firing', log: 'back' },
      { status: 'snoozed', log: 'later', snoozeSeconds: 5400 },
    ]);
    await expect(run('alert.snooze', { alert: a._id, note: 'x', for: '30s' }, api)).rejects.toThrow('A snooze lasts from 1 minute to 30 days');
    await expect(run('alert.resolve', { alert: a._id, note: '   ' }, api)).rejects.toThrow('Notes: Add Notes.');
  });

  it('a note keeps the current status, and what is left of a timed snooze', async () => {
    const a = { ...alert(8, 'snoozed'), snoozedUntil: new Date(Date.now() + 600_000).toISOString() };
    const { api, calls } = oneAlertApi(a);
    await run('alert.note', { alert: a._id, note: 'still on it' }, api);
    const body = calls.find((c) => c.method === 'PATCH')!.body;
    expect(body.status).toBe('snoozed');
    expect(body.snoozeSeconds).toBeGreaterThan(590);
    expect(body.snoozeSeconds).toBeLessThanOrEqual(600);
  });

  it('delete asks SPEC’s question only for an alert that exists', async () => {
    const a = alert(9);
    const { api, calls } = oneAlertApi(a);
    const base = context(api);
    const ctx = { ...base, user: { ...base.user!, role: 'sysadmin' as const } };
    await expect(createAppRegistry().run('alert.delete', { alert: 'nothing-like-it' }, { source: 'cmdline', ctx })).rejects.toThrow('No alert matches "nothing-like-it"');
    expect(ctx.asked).toEqual([]);
    // A user-role account is refused before anything is looked up.
    await expect(createAppRegistry().run('alert.delete', { alert: 'web-9' }, { source: 'cmdline', ctx: base })).rejects.toThrow(/Only Admin or sysadmin/);
    await createAppRegistry().run('alert.delete', { alert: 'web-9' }, { source: 'cmdline', ctx });
    expect(ctx.asked).toEqual(['Are you sure to delete this alert?']);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`alerts/${a._id}`]);
  });
});

describe('acknowledgement commands (issue 14)', () => {
  it('alerts.ack-matching previews the count of unowned open matches, then acknowledges each with the note and duration', async () => {
    const owned = { ...alert(3), acknowledgement: { by: { _id: 'u2', username: 'bob' }, note: null, at: '', until: null } };
    const alerts = [alert(1), alert(2, 'snoozed'), owned, alert(4, 'resolved'), { ...alert(5), hostname: 'db-5' }];
    const { api, calls } = fakeAlertsApi(alerts);
    const ctx = context(api);
    const result = await createAppRegistry().run('alerts.ack-matching', { host: 'web', note: 'on it', for: '2h' }, { source: 'cmdline', ctx });
    expect(ctx.asked).toEqual(['Acknowledge 2 alerts? (host contains “web”; for 2h)']);
    const acks = calls.filter((c) => c.method === 'POST' && c.path.endsWith('/ack'));
    expect(acks.map((c) => c.path).sort()).toEqual([`alerts/${alert(1)._id}/ack`, `alerts/${alert(2)._id}/ack`]);
    expect(acks[0]!.body).toEqual({ note: 'on it', forSeconds: 7200 });
    expect(owned.acknowledgement.by.username).toBe('bob');
    expect(result.message).toBe('Acknowledged 2 alerts matching host contains “web”.');
  });

  it('alert.ack takes one alert without asking; given a filter instead it hands over to alerts.ack-matching; neither is refused', async () => {
    const a = alert(7);
    const { api, calls } = fakeAlertsApi([a]);
    api.get = vi.fn(async () => ({ result: { ...a, timeline: [] } })) as never;
    const ctx = context(api);
    const r = await createAppRegistry().run('alert.ack', { alert: a._id, for: '30m' }, { source: 'palette', ctx });
    expect(ctx.asked).toEqual([]);
    expect(calls.find((c) => c.path.endsWith('/ack'))!.body).toEqual({ forSeconds: 1800 });
    expect(r.message).toBe('Acknowledged **high disk usage on web-7** for 30m.');
    await createAppRegistry().run('alert.ack', { severity: 'critical', note: 'all mine' }, { source: 'cmdline', ctx });
    expect(ctx.run).toHaveBeenCalledWith('alerts.ack-matching', { severity: 'critical', note: 'all mine', host: undefined, name: undefined, status: undefined, for: undefined });
    await expect(createAppRegistry().run('alert.ack', {}, { source: 'cmdline', ctx })).rejects.toThrow('Name an alert, or a filter');
    await expect(createAppRegistry().run('alert.ack', { alert: a._id, for: '10s' }, { source: 'cmdline', ctx })).rejects.toThrow('An acknowledgement lasts from 1 minute to 30 days');
  });

  it('alert.unack refuses an alert nobody holds and releases one somebody does; alerts.unack-matching takes only acknowledged ones', async () => {
    const free = alert(8);
    const held = { ...alert(9), acknowledgement: { by: { _id: 'u2', username: 'bob' }, note: null, at: '', until: null } };
    const { api, calls } = fakeAlertsApi([free, held]);
    api.get = vi.fn(async (path: string) => ({ result: { ...(path.endsWith(free._id) ? free : held), timeline: [] } })) as never;
    const ctx = context(api);
    await expect(createAppRegistry().run('alert.unack', { alert: free._id }, { source: 'cmdline', ctx })).rejects.toThrow('is not acknowledged');
    const r = await createAppRegistry().run('alert.unack', { alert: held._id, note: 'shift change' }, { source: 'cmdline', ctx });
    expect(r.message).toBe('Released the acknowledgement of **high disk usage on web-9** (was bob).');
    expect(calls.filter((c) => c.path.endsWith('/unack')).map((c) => c.body)).toEqual([{ note: 'shift change' }]);
    held.acknowledgement = { by: { _id: 'u2', username: 'bob' }, note: null, at: '', until: null };
    await createAppRegistry().run('alerts.unack-matching', { host: 'web' }, { source: 'cmdline', ctx });
    expect(ctx.asked.at(-1)).toBe('Release 1 alert? (host contains “web”)');
  });
});
