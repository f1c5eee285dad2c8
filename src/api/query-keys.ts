import type { ListQuery } from '../../server/contract/common';

/** Query-key factories: invalidate by prefix (e.g. queryKeys.users.all) rather than everything. */
export const queryKeys = {
  auth: { whoami: ['auth', 'whoami'] as const },
  /** Issue 13: the signed-in person's API tokens. */
  tokens: { all: ['tokens'] as const },
  /** Issue 27 §2: one person's contact methods. */
  contactMethods: { all: ['contact-methods'] as const, of: (userId: string) => ['contact-methods', userId] as const },
  notificationRules: { all: ['notification-rules'] as const, of: (userId: string) => ['notification-rules', userId] as const },
  users: {
    all: ['users'] as const,
    list: (q: ListQuery) => ['users', 'list', q] as const,
    one: (id: string) => ['users', 'one', id] as const,
  },
  servers: {
    all: ['servers'] as const,
    list: (q: ListQuery) => ['servers', 'list', q] as const,
    one: (id: string) => ['servers', 'one', id] as const,
    usage: (id: string) => ['servers', 'usage', id] as const,
    upstatus: (id: string) => ['servers', 'upstatus', id] as const,
    forecast: (id: string) => ['servers', 'forecast', id] as const,
    selector: (text: string) => ['servers', 'selector', text] as const,
    services: (q: ListQuery) => ['servers', 'services', q] as const,
    chart: (id: string, panel: number, from: number, to: number) => ['servers', 'chart', id, panel, from, to] as const,
    /** A page of plain servers (no figures) for a form's choices: a maintenance window's, a status page's. */
    choices: (q: ListQuery) => ['servers', 'choices', q] as const,
  },
  checks: {
    all: ['checks'] as const,
    list: (q: ListQuery) => ['checks', 'list', q] as const,
    one: (id: string) => ['checks', 'one', id] as const,
    history: (id: string, from: number, to: number) => ['checks', 'history', id, from, to] as const,
    results: (id: string) => ['checks', 'results', id] as const,
    uptime: (id: string) => ['checks', 'uptime', id] as const,
  },
  /** Issue 16 public status pages; `public` is the anonymous view by slug. */
  statusPages: {
    all: ['status-pages'] as const,
    list: (q: ListQuery) => ['status-pages', 'list', q] as const,
    one: (id: string) => ['status-pages', 'one', id] as const,
    public: (slug: string) => ['status-pages', 'public', slug] as const,
  },
  alerts: {
    all: ['alerts'] as const,
    list: (q: ListQuery) => ['alerts', 'list', q] as const,
    one: (id: string) => ['alerts', 'one', id] as const,
  },
  alertConfig: {
    all: ['alert-config'] as const,
    server: (serverId: string) => ['alert-config', 'server', serverId] as const,
  },
  notificationGroups: {
    all: ['notification-groups'] as const,
    list: (q: ListQuery) => ['notification-groups', 'list', q] as const,
    one: (id: string) => ['notification-groups', 'one', id] as const,
    selector: (text: string) => ['notification-groups', 'selector', text] as const,
    channels: (id: string) => ['notification-groups', 'channels', id] as const,
  },
  analytics: {
    all: ['analytics'] as const,
    /** One dashboard card's figures; `percentage` for the high-usage cards. */
    card: (name: string, percentage?: number) => ['analytics', name, ...(percentage === undefined ? [] : [percentage])] as const,
  },
  monitoringConfig: ['monitoring', 'config'] as const,
  /** Issue 14 routing. */
  silences: {
    all: ['silences'] as const,
    list: (state: string) => ['silences', 'list', state] as const,
    one: (id: string) => ['silences', 'one', id] as const,
  },
  /** Issue 27 on call: schedules, who is on call, a schedule's final schedule. */
  oncall: {
    all: ['oncall'] as const,
    list: () => ['oncall', 'list'] as const,
    one: (id: string) => ['oncall', 'one', id] as const,
    who: (schedule?: string) => ['oncall', 'who', schedule ?? '*'] as const,
    myShift: () => ['oncall', 'my-shift'] as const,
    gaps: (schedule?: string) => ['oncall', 'gaps', schedule ?? '*'] as const,
    final: (id: string, from: string, to: string) => ['oncall', 'final', id, from, to] as const,
  },
  maintenanceWindows: {
    all: ['maintenance-windows'] as const,
    list: () => ['maintenance-windows', 'list'] as const,
    one: (id: string) => ['maintenance-windows', 'one', id] as const,
    occurrences: (from: string, to: string) => ['maintenance-windows', 'occurrences', from, to] as const,
  },
  /**
   * What a silence's or a window's matchers match now, asked while its drawer is open. Kept apart
   * from the silences' and windows' keys: saving one refreshes those lists, and must not wait for
   * the preview it no longer shows to be fetched again.
   */
  matchPreview: {
    silence: (body: unknown) => ['match-preview', 'silence', body] as const,
    window: (body: unknown) => ['match-preview', 'window', body] as const,
  },
  /** Whether the figures are fresh (the "never blind" banner), and who gets the meta alert. */
  monitoringHealth: ['monitoring', 'health'] as const,
  monitoringAlertGroups: ['settings', 'monitoring-alert-groups'] as const,
  /** Issue 24 §6: whether alerts reach anyone, and the group new rules notify; under the groups' prefix, so a group's change refreshes it. */
  alertReach: ['notification-groups', 'reach'] as const,
  commandHistory: {
    all: ['command-history'] as const,
    list: (q: ListQuery) => ['command-history', 'list', q] as const,
  },
  aliases: { all: ['aliases'] as const },
  /** Issue 15: Alertmanager both ways (the push's instances, the receiver's token). */
  integrations: { alertmanager: ['integrations', 'alertmanager'] as const },
  incidentReport: {
    all: ['incident-report'] as const,
    window: (q: { from: string; to: string; serverId?: string }) => ['incident-report', q] as const,
  },
};

/**
 * What one kind of change makes stale, so a command refreshes the figures derived from what it
 * changed (an alert resolved moves the dashboard's Alerts Summary) without invalidating every
 * query. Commands pass these to `invalidateAll` (commands/stale.ts).
 */
export const staleAfter = {
  /** An alert's status changed, or it was deleted: the lists, its detail, the Alerts Summary. */
  alert: [queryKeys.alerts.all, queryKeys.analytics.card('alerts')],
  /** A server was added, renamed or re-pointed: the lists and every dashboard card naming servers. */
  server: [queryKeys.servers.all, queryKeys.analytics.all],
  /** A server was deleted: its alerts went with it (cascade). */
  serverDeleted: [queryKeys.servers.all, queryKeys.analytics.all, queryKeys.alerts.all],
} as const;
