import type { EntityKind } from '../../../commands/define-command';
import { can, type Role } from '../../../server/contract/permissions';
import type { Api } from '../../api/client';
import { listAlerts } from '../../api/alerts';
import { listChecks } from '../../api/checks';
import { listCommandHistory } from '../../api/command-history';
import { alertStatusLabels } from '../../../server/contract/alerts';
import { listNotificationGroups } from '../../api/notification-groups';
import { listWindows } from '../../api/maintenance-windows';
import { listSilences, silencesQuery } from '../../api/silences';
import { listStatusPages } from '../../api/status-pages';
import { matcherText } from '../../../server/contract/routing';
import { listServers } from '../../api/servers';
import { listUsers } from '../../api/users';

/** One palette / completion entry for a thing in the console (a user now; servers, alerts, groups later). */
export interface Entity {
  kind: EntityKind;
  id: string;
  title: string;
  subtitle: string;
  /** The value a command argument takes for it (an id). */
  value: string;
  /** What the command line completes to (a username reads better than an id). */
  completion: string;
  /**
   * The host the entity is on or is (an alert's, a server's): the row shows its start and its end
   * whatever its length, since hosts of one fleet often differ only in their last characters.
   */
  host?: string;
}

export interface EntityProvider {
  kind: EntityKind;
  /** Whether this role may see these entities at all. */
  visible: (role: Role | undefined) => boolean;
  search: (api: Api, text: string, limit: number) => Promise<Entity[]>;
  /** The command that opens one, for the palette's entity rows. */
  showCommand?: { id: string; arg: string };
}

export const entityProviders: EntityProvider[] = [
  {
    kind: 'user',
    visible: (role) => can(role, 'users.read'),
    showCommand: { id: 'user.show', arg: 'user' },
    async search(api, text, limit) {
      const { result } = await listUsers(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'username', direction: 'asc' } });
      return result.data.map((u) => ({ kind: 'user', id: u._id, title: u.username, subtitle: `${u.email} · ${u.role}`, value: u._id, completion: u.username }));
    },
  },
  {
    kind: 'server',
    visible: (role) => can(role, 'read'),
    showCommand: { id: 'server.show', arg: 'server' },
    async search(api, text, limit) {
      // `search` matches hostname and IP address (server/routes/servers.ts).
      const { result } = await listServers(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'hostname', direction: 'asc' } });
      return result.data.map((s) => ({ kind: 'server', id: s._id, title: s.hostname, subtitle: `${s.ipaddress} · ${s.operating_system} · ${s.state}`, value: s._id, completion: s.hostname, host: s.hostname }));
    },
  },
  {
    kind: 'check',
    visible: (role) => can(role, 'read'),
    showCommand: { id: 'check.show', arg: 'check' },
    async search(api, text, limit) {
      // `search` matches the name and the target (server/routes/checks.ts).
      const { result } = await listChecks(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'name', direction: 'asc' } });
      return result.data.map((c) => ({ kind: 'check', id: c._id, title: c.name, subtitle: `${c.target} · ${c.paused ? 'paused' : c.state}`, value: c._id, completion: c.name }));
    },
  },
  {
    kind: 'status-page',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      // `search` matches the slug and the title (server/routes/status-pages.ts).
      const { result } = await listStatusPages(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'slug', direction: 'asc' } });
      return result.data.map((p) => ({
        kind: 'status-page' as const,
        id: p._id,
        title: p.title,
        subtitle: `/status/${p.slug}${p.openIncident ? ` · incident: ${p.openIncident}` : ''}`,
        value: p._id,
        completion: p.slug,
      }));
    },
  },
  {
    kind: 'silence',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      // Active and pending silences; the comment and the matchers are what a person remembers.
      const { result } = await listSilences(api, silencesQuery('current', Math.min(limit, 100)));
      const lower = text.toLowerCase();
      return result.data
        .map((s) => ({ s, matchers: s.matchers.map(matcherText).join(', ') }))
        .filter(({ s, matchers }) => !lower || s.comment.toLowerCase().includes(lower) || matchers.toLowerCase().includes(lower))
        .map(({ s, matchers }) => ({ kind: 'silence' as const, id: s._id, title: matchers, subtitle: `${s.comment} · until ${new Date(s.endsAt).toLocaleString()}`, value: s._id, completion: s._id }));
    },
  },
  {
    kind: 'window',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      const { result } = await listWindows(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'name', direction: 'asc' } });
      return result.data.map((w) => ({ kind: 'window' as const, id: w._id, title: w.name, subtitle: `${w.rrule ?? 'once'} · ${w.state}`, value: w._id, completion: w.name }));
    },
  },
  {
    kind: 'alert',
    visible: (role) => can(role, 'read'),
    showCommand: { id: 'alert.show', arg: 'alert' },
    async search(api, text, limit) {
      // `search` matches hostname, IP, alert name, service and summary (server/routes/alerts.ts); newest first.
      const { result } = await listAlerts(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'createdAt', direction: 'desc' } });
      return result.data.map((a) => ({
        kind: 'alert',
        id: a._id,
        title: `${a.alertname.replace(/_/g, ' ')} · ${a.hostname}`,
        // The summary tells two alerts of one host apart (which service); cmdk shows it as text.
        subtitle: `${a.summary ? `${a.summary} · ` : ''}${alertStatusLabels[a.status]} · ${a.severity} · ${new Date(a.createdAt).toLocaleString()}`,
        value: a._id,
        // Alert names repeat across hosts and time: only the id is unique on the command line.
        completion: a._id,
        host: a.hostname,
      }));
    },
  },
  {
    kind: 'group',
    visible: (role) => can(role, 'read'),
    showCommand: { id: 'group.show', arg: 'group' },
    async search(api, text, limit) {
      // `search` matches the name (server/routes/notification-groups.ts).
      const { result } = await listNotificationGroups(api, { pageNumber: 1, pageSize: limit, search: text || undefined, sort: { by: 'name', direction: 'asc' } });
      return result.data.map((g) => ({
        kind: 'group',
        id: g._id,
        title: g.name,
        subtitle: `${g.emailList.length} email${g.emailList.length === 1 ? '' : 's'}${g.slackEnabled ? ` · Slack ${g.slackChannel}` : ''}`,
        value: g._id,
        completion: g.name,
      }));
    },
  },
  {
    kind: 'command',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      const { result } = await listCommandHistory(api, { pageNumber: 1, pageSize: limit, search: text || undefined });
      return result.data.map((h) => ({
        kind: 'command',
        id: h._id,
        title: h.commandLine ?? h.command,
        subtitle: `${h.username} · ${new Date(h.createdAt).toLocaleString()} · ${h.outcome}${h.targets.length ? ` · ${h.targets.map((t) => t.name).join(', ')}` : ''}`,
        value: h._id,
        completion: h._id,
      }));
    },
  },
];

export function providerFor(kind: EntityKind | undefined): EntityProvider | undefined {
  return entityProviders.find((p) => p.kind === kind);
}
