import type { ListQuery } from '../../server/contract/common';

/** Query-key factories: invalidate by prefix (e.g. queryKeys.users.all) rather than everything. */
export const queryKeys = {
  auth: { whoami: ['auth', 'whoami'] as const },
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
    selector: (text: string) => ['servers', 'selector', text] as const,
    services: (q: ListQuery) => ['servers', 'services', q] as const,
    chart: (id: string, panel: number, from: number, to: number) => ['servers', 'chart', id, panel, from, to] as const,
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
  },
  analytics: {
    all: ['analytics'] as const,
    /** One dashboard card's figures; `percentage` for the high-usage cards. */
    card: (name: string, percentage?: number) => ['analytics', name, ...(percentage === undefined ? [] : [percentage])] as const,
  },
  monitoringConfig: ['monitoring', 'config'] as const,
  commandHistory: {
    all: ['command-history'] as const,
    list: (q: ListQuery) => ['command-history', 'list', q] as const,
  },
  incidentReport: {
    all: ['incident-report'] as const,
    window: (q: { from: string; to: string; serverId?: string }) => ['incident-report', q] as const,
  },
};
