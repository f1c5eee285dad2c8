import type { ArgSpec, EntityKind } from '../../../commands/define-command';
import { can, type Role } from '../../../server/contract/permissions';
import type { Api } from '../../api/client';
import { whoami } from '../../api/auth';
import { listCommandHistory } from '../../api/command-history';
import { listContactMethods } from '../../api/contact-methods';
import { alertStatusLabels } from '../../../server/contract/alerts';
import { listWindows } from '../../api/maintenance-windows';
import { listSchedules } from '../../api/oncall';
import { listSilences, silencesQuery } from '../../api/silences';
import { listStatusPages } from '../../api/status-pages';
import { matcherText } from '../../../server/contract/routing';
import { searchEntities } from '../../api/search';
import { alertRef, completeAlertRefs } from '../../../commands/alert/alert-ref';
import type { CompletionValue } from '../../../commands/complete-command-line';
import type { SearchHit, SearchKind } from '../../../server/contract/search';

/** One palette / completion entry for a thing in the console. */
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
  /** Answered by GET /api/search under this kind: the palette asks for several such kinds in one request. */
  searchKind?: SearchKind;
  /** The command that opens one, for the palette's entity rows. */
  showCommand?: { id: string; arg: string };
}

/** An entity from GET /api/search's hit (server/contract/search.ts), as the palette and completion show it. */
export function entityFromHit(hit: SearchHit): Entity {
  switch (hit.kind) {
    case 'user':
      return { kind: 'user', id: hit._id, title: hit.username, subtitle: `${hit.email} · ${hit.role}`, value: hit._id, completion: hit.username };
    case 'server':
      return { kind: 'server', id: hit._id, title: hit.hostname, subtitle: `${hit.ipaddress} · ${hit.operating_system} · ${hit.state}`, value: hit._id, completion: hit.hostname, host: hit.hostname };
    case 'check':
      return { kind: 'check', id: hit._id, title: hit.name, subtitle: `${hit.target} · ${hit.paused ? 'paused' : hit.state}`, value: hit._id, completion: hit.name };
    case 'alert':
      return {
        kind: 'alert',
        id: hit._id,
        title: `${hit.alertname.replace(/_/g, ' ')} · ${hit.hostname}`,
        // The summary tells two alerts of one host apart (which service); cmdk shows it as text.
        subtitle: `${hit.summary ? `${hit.summary} · ` : ''}${alertStatusLabels[hit.status]} · ${hit.severity} · ${new Date(hit.createdAt).toLocaleString()}`,
        value: hit._id,
        // The command line names alerts as people do; the ref reads as the open alert of that name there.
        completion: alertRef({ ...hit, service: null, mountpoint: null, volume: null }),
        host: hit.hostname,
      };
    case 'group':
      return {
        kind: 'group',
        id: hit._id,
        title: hit.name,
        subtitle: `${hit.emails} email${hit.emails === 1 ? '' : 's'}${hit.slackEnabled ? ` · Slack ${hit.slackChannel ?? ''}` : ''}`,
        value: hit._id,
        completion: hit.name,
      };
  }
}

/**
 * Entities of several kinds matching every word of the text, in one request (GET /api/search:
 * one query on the server, where one list call per kind queued behind each other on PGlite).
 */
export async function searchEntityKinds(api: Api, text: string, kinds: readonly SearchKind[], limit: number): Promise<Entity[]> {
  if (!kinds.length) return [];
  const { result } = await searchEntities(api, text, kinds, limit);
  return result.hits.map(entityFromHit);
}

/** A provider answered by GET /api/search. */
const searched = (kind: SearchKind, visible: EntityProvider['visible'], showCommand: EntityProvider['showCommand']): EntityProvider => ({
  kind,
  visible,
  showCommand,
  searchKind: kind,
  search: (api, text, limit) => searchEntityKinds(api, text, [kind], limit),
});

export const entityProviders: EntityProvider[] = [
  // Users only for those who may read them; GET /api/search answers the same.
  searched('user', (role) => can(role, 'users.read'), { id: 'user.show', arg: 'user' }),
  searched('server', (role) => can(role, 'read'), { id: 'server.show', arg: 'server' }),
  searched('check', (role) => can(role, 'read'), { id: 'check.show', arg: 'check' }),
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
    kind: 'schedule',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      const { result } = await listSchedules(api, { pageNumber: 1, pageSize: Math.min(limit, 100), search: text || undefined, sort: { by: 'name', direction: 'asc' } });
      return result.data.map((s) => ({ kind: 'schedule' as const, id: s._id, title: s.name, subtitle: `${s.timeZone} · ${s.layers.length} layer${s.layers.length === 1 ? '' : 's'}`, value: s._id, completion: s.name }));
    },
  },
  {
    // One's own contact methods (issue 27 §2), by label: few per person, so listed and matched here.
    kind: 'contact-method',
    visible: (role) => can(role, 'read'),
    async search(api, text, limit) {
      const me = (await whoami(api)).result;
      const lower = text.toLowerCase();
      return (await listContactMethods(api, me._id)).result.data
        .filter((m) => !lower || m.label.toLowerCase().includes(lower))
        .slice(0, limit)
        .map((m) => ({ kind: 'contact-method' as const, id: m._id, title: m.label, subtitle: `${m.target} · ${m.verified ? 'verified' : 'not verified'}`, value: m.label, completion: m.label }));
    },
  },
  searched('alert', (role) => can(role, 'read'), { id: 'alert.show', arg: 'alert' }),
  searched('group', (role) => can(role, 'read'), { id: 'group.show', arg: 'group' }),
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

/**
 * Tab's values for an entity argument on the command line: alerts are the open ones whose host
 * or name starts with the typed word, as `alertname@host` (never an id); other kinds what their
 * provider finds, as names. Nothing for a kind this role may not see, or when the lookup fails.
 */
export async function completionValues(api: Api, role: Role | undefined, arg: ArgSpec, prefix: string): Promise<CompletionValue[]> {
  const provider = arg.entity ? providerFor(arg.entity) : undefined;
  if (!provider || !provider.visible(role)) return [];
  try {
    if (arg.entity === 'alert') return (await completeAlertRefs(api, prefix)).map((value) => ({ value, matched: true as const }));
    return (await provider.search(api, prefix, 50)).map((e) => e.completion);
  } catch {
    return [];
  }
}
