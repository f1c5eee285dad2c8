import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { CommandError } from '../../commands/registry';
import { draftKey, findRule, parseGrace, parseThreshold, rebase, updateBody, withEdit, type RuleDraft } from '../../commands/rules/rule-draft';
import type { AlertConfig, AlertRule } from '../../server/contract/alerts';
import { updateAlertConfigSchema } from '../../server/contract/alerts';
import type { Api } from '../../src/api/client';
import { createDraftStore } from '../../src/lib/draft-store';
import { fakeServer } from './fake-server';

const SERVER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const GROUP = '33333333-3333-4333-8333-333333333333';

const rule = (over: Partial<AlertRule> & Pick<AlertRule, '_id' | 'name'>): AlertRule => ({
  description: 'd',
  type: 'resouce_alert',
  metric: 'cpu',
  enabled: true,
  timeLimit: 300,
  threshold: 90,
  severity: 'warning',
  notificationGroup: null,
  ...over,
});

const config = (serverId = SERVER): AlertConfig => ({
  _id: `cfg-${serverId}`,
  serverId,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  rules: [
    rule({ _id: 'r-cpu', name: 'high_cpu_usage' }),
    rule({ _id: 'r-disk', name: 'high_disk_usage', metric: 'disk', threshold: 85 }),
    rule({ _id: 'r-crit', name: 'critical_disk_usage', metric: 'disk', threshold: 95, timeLimit: 60, severity: 'critical' }),
    rule({ _id: 'r-down', name: 'instance_down', metric: 'instance_down', threshold: null, timeLimit: 60, severity: 'critical' }),
  ],
});

describe('rule draft', () => {
  it('keeps only fields that differ from the server, so setting a value back clears the change', () => {
    const base = config();
    let edits = withEdit({ base, edits: {} }, 'r-cpu', { threshold: 80 });
    expect(edits).toEqual({ 'r-cpu': { threshold: 80 } });
    edits = withEdit({ base, edits }, 'r-cpu', { enabled: false });
    expect(edits).toEqual({ 'r-cpu': { threshold: 80, enabled: false } });
    edits = withEdit({ base, edits }, 'r-cpu', { threshold: 90 });
    expect(edits).toEqual({ 'r-cpu': { enabled: false } });
    edits = withEdit({ base, edits }, 'r-cpu', { enabled: true });
    expect(edits).toEqual({});
  });

  it('sends the full config with every rule once and the edits applied, and the server contract accepts it', () => {
    const base = config();
    const edits = withEdit({ base, edits: withEdit({ base, edits: {} }, 'r-disk', { timeLimit: 120, notificationGroup: GROUP }) }, 'r-down', { enabled: false });
    const body = updateBody({ base, edits });
    expect(body._id).toBe(base._id);
    expect(body.rules.map((r) => r._id)).toEqual(['r-cpu', 'r-disk', 'r-crit', 'r-down']);
    expect(body.rules[0]).toMatchObject({ threshold: 90, timeLimit: 300, enabled: true, notificationGroup: null });
    expect(body.rules[1]).toMatchObject({ threshold: 85, timeLimit: 120, notificationGroup: GROUP });
    expect(body.rules[3]).toMatchObject({ enabled: false, threshold: null });
    expect(updateAlertConfigSchema.safeParse(body).success).toBe(true);
  });

  it('keeps edits across a refetch only where they still differ, and drops rules that are gone', () => {
    const base = config();
    const edits = { 'r-cpu': { threshold: 80 }, 'r-disk': { severity: 'critical' as const }, 'r-gone': { enabled: false } };
    const fresh = { ...base, rules: base.rules.map((r) => (r._id === 'r-disk' ? { ...r, severity: 'critical' as const } : r)) };
    expect(rebase(edits, fresh)).toEqual({ 'r-cpu': { threshold: 80 } });
  });

  it('finds rules by name with spaces or underscores, by id, or by a unique part', () => {
    const rules = config().rules;
    expect(findRule(rules, 'high cpu usage')._id).toBe('r-cpu');
    expect(findRule(rules, 'HIGH_CPU_USAGE')._id).toBe('r-cpu');
    expect(findRule(rules, 'r-down')._id).toBe('r-down');
    expect(findRule(rules, 'instance')._id).toBe('r-down');
    expect(() => findRule(rules, 'disk')).toThrow(/matches 2 rules: high disk usage, critical disk usage/);
    expect(() => findRule(rules, 'nope')).toThrow(/No rule "nope"/);
  });

  it('reads grace periods in seconds or minutes and thresholds with or without %', () => {
    expect([parseGrace('2m'), parseGrace('120'), parseGrace('120s'), parseGrace('3'), parseGrace(240), parseGrace('5 minutes'), parseGrace('soon')]).toEqual([120, 120, 120, 180, 240, 300, null]);
    expect([parseThreshold('80'), parseThreshold('80%'), parseThreshold(95), parseThreshold('high')]).toEqual([80, 80, 95, null]);
  });
});

/** A context whose API answers the config and group calls; records writes. */
function harness(options: { open?: string } = {}) {
  const store = createDraftStore();
  const configs: Record<string, AlertConfig> = { [SERVER]: config(SERVER), [OTHER]: config(OTHER) };
  const writes: { method: string; path: string; body: any }[] = [];
  // The group as the API answers it.
  const group = { _id: GROUP, id: GROUP, name: 'On call', description: '', emailEnabled: false, emailList: [], slackEnabled: false, slackChannel: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
  const api = {
    get: vi.fn(async (path: string) => {
      if (path.startsWith('servers/')) {
        const id = path.split('/')[1]!;
        return { result: fakeServer({ _id: id, hostname: id === SERVER ? 'web-01' : 'db-01', ipaddress: '10.0.0.1', agentPort: 9100 }) };
      }
      if (path === `notification-groups/${GROUP}`) return { result: group };
      throw new Error(`unexpected GET ${path}`);
    }),
    post: vi.fn(async (path: string, body: any) => {
      if (path === 'alert-config/get-alert-config/all') return { result: { data: [configs[body.filter.serverId.eq]].filter(Boolean), count: 1 } };
      if (path === 'notification-groups/all') return { result: { data: [group], count: 1 } };
      throw new Error(`unexpected POST ${path}`);
    }),
    patch: vi.fn(async (path: string, body: any) => {
      writes.push({ method: 'PATCH', path, body });
      const cfg = Object.values(configs).find((c) => path.endsWith(c._id))!;
      return { result: { ...cfg, rules: body.rules ?? cfg.rules } };
    }),
    delete: vi.fn(),
  } as unknown as Api;
  const ctx: CommandContext = {
    api,
    user: { _id: 'u', username: 'ann', email: 'ann@x', role: 'admin' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
    location: () => ({ pathname: options.open ? `/servers/show/${options.open}` : '/', search: options.open ? { tab: 'alerts-config' } : {} }),
    drafts: store,
  };
  if (options.open) store.set(draftKey(options.open), { serverId: options.open, hostname: 'web-01', base: configs[options.open]!, edits: {} } satisfies RuleDraft);
  const registry = createAppRegistry();
  const run = (id: string, input: unknown) => registry.dispatch(id, input, { source: 'cmdline', ctx });
  return { ctx, store, writes, run, registry, draft: () => store.get<RuleDraft>(draftKey(SERVER)) };
}

describe('rules commands', () => {
  it('with the tab open, edits are held in the draft and rules.save sends them all at once', async () => {
    const h = harness({ open: SERVER });
    expect(h.registry.check('rules.save', h.ctx)).toMatch(/No rule edits are held/);
    await h.run('rules.set-threshold', { rule: 'high cpu usage', threshold: '80' });
    await h.run('rules.disable', { rule: 'instance_down' });
    await h.run('rules.set-grace', { rule: 'critical disk usage', grace: '2m' });
    await h.run('rules.set-group', { rule: 'high cpu usage', group: 'On call' });
    expect(h.writes).toEqual([]);
    expect(h.draft()!.edits).toEqual({ 'r-cpu': { threshold: 80, notificationGroup: GROUP }, 'r-down': { enabled: false }, 'r-crit': { timeLimit: 120 } });
    expect(h.registry.check('rules.save', h.ctx)).toBe(true);

    const result = await h.run('rules.save', {});
    expect(result.message).toMatch(/Saved 3 changed rules of \*\*web-01\*\*/);
    expect(h.writes).toHaveLength(1);
    expect(h.writes[0]!.path).toBe(`alert-config/update-alert-config/cfg-${SERVER}`);
    const sent = h.writes[0]!.body.rules as AlertRule[];
    expect(sent.find((r) => r._id === 'r-cpu')).toMatchObject({ threshold: 80, notificationGroup: GROUP });
    expect(sent.find((r) => r._id === 'r-down')).toMatchObject({ enabled: false });
    expect(h.draft()!.edits).toEqual({});
    expect(h.ctx.invalidate).toHaveBeenCalledWith(['alert-config', 'server', SERVER]);
  });

  it('for another server, or with no tab open, a change is saved at once', async () => {
    const h = harness({ open: SERVER });
    await h.run('rules.set-severity', { rule: 'high_cpu_usage', severity: 'critical', server: OTHER });
    expect(h.writes).toHaveLength(1);
    expect(h.writes[0]!.path).toBe(`alert-config/update-alert-config/cfg-${OTHER}`);
    expect(h.writes[0]!.body.rules.find((r: AlertRule) => r._id === 'r-cpu').severity).toBe('critical');
    expect(h.draft()!.edits).toEqual({});

    const away = harness();
    await expect(away.run('rules.enable', { rule: 'high cpu usage' })).rejects.toThrow(/Name a server with --server/);
    await away.run('rules.enable', { rule: 'high cpu usage', server: SERVER });
    // Already enabled: nothing to send.
    expect(away.writes).toEqual([]);
  });

  it('refuses values outside SPEC’s choices and thresholds on down rules before anything is held or sent', async () => {
    const h = harness({ open: SERVER });
    await expect(h.run('rules.set-threshold', { rule: 'high cpu usage', threshold: 75 })).rejects.toThrow(/Threshold must be one of 99, 95, 90, 85, 80, 70, 60/);
    await expect(h.run('rules.set-grace', { rule: 'high cpu usage', grace: '10m' })).rejects.toThrow(/1 to 5 minutes/);
    await expect(h.run('rules.set-threshold', { rule: 'instance down', threshold: 90 })).rejects.toThrow(/has no threshold/);
    expect(h.draft()!.edits).toEqual({});
    expect(h.writes).toEqual([]);
  });

  it('reset asks, names the server, and drops held edits', async () => {
    const h = harness({ open: SERVER });
    await h.run('rules.disable', { rule: 'high cpu usage' });
    await h.run('rules.reset', {});
    expect(h.ctx.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Reset To Default', message: expect.stringMatching(/alert rules of web-01 to the defaults/) }));
    expect(h.writes).toEqual([{ method: 'PATCH', path: `alert-config/reset-alert-rules/cfg-${SERVER}`, body: {} }]);
    expect(h.draft()!.edits).toEqual({});
  });

  it('a declined reset changes nothing', async () => {
    const h = harness({ open: SERVER });
    (h.ctx.confirm as ReturnType<typeof vi.fn>).mockResolvedValue(false);
    await h.run('rules.disable', { rule: 'high cpu usage' });
    const err = await h.run('rules.reset', {}).catch((e: unknown) => e);
    expect((err as CommandError).outcome).toBe('cancelled');
    expect(h.writes).toEqual([]);
    expect(h.draft()!.edits).toEqual({ 'r-cpu': { enabled: false } });
  });
});
