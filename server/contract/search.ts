import { z } from 'zod';
import { alertStatuses, severities } from './alerts';
import { str } from './common';
import { roles } from './permissions';

/**
 * The palette's entity search (issue 13): `GET /api/search?q&kinds&limit` answers the things of
 * several kinds matching a text in one request and one query, instead of one list call per kind
 * (five of them queued on PGlite's one connection, each counting its matches).
 *
 * Every word of `q` must match (in any order, anywhere in the kind's searched text), so
 * "web-042 disk" finds the disk alerts of web-042 although no single field holds both words.
 */
export const searchKinds = ['server', 'alert', 'user', 'check', 'group'] as const;
export type SearchKind = (typeof searchKinds)[number];
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 50;
/** Words after these are not looked at: each word only narrows, and the palette ranks what comes. */
export const SEARCH_MAX_WORDS = 8;

export const searchQuerySchema = z.object({
  q: str().max(200, 'q is too long (at most 200 characters)').default(''),
  /** Comma-separated; default every kind the caller may read. */
  kinds: str()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      const list = [...new Set(v.split(',').map((k) => k.trim()).filter(Boolean))];
      const unknown = list.filter((k) => !(searchKinds as readonly string[]).includes(k));
      if (unknown.length) {
        ctx.addIssue({ code: 'custom', message: `kinds: unknown kind "${unknown[0]}" (kinds: ${searchKinds.join(', ')})` });
        return z.NEVER;
      }
      return list as SearchKind[];
    }),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(SEARCH_LIMIT_MAX, `limit must be at most ${SEARCH_LIMIT_MAX}`)
    .default(SEARCH_LIMIT_DEFAULT),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/** What the palette shows of each kind (its row's title and subtitle), nothing more. */
export const searchHitSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('server'), _id: str(), hostname: str(), ipaddress: str(), operating_system: str(), state: str() }),
  z.object({
    kind: z.literal('alert'),
    _id: str(),
    alertname: str(),
    hostname: str(),
    summary: str(),
    status: z.enum(alertStatuses),
    severity: z.enum(severities),
    createdAt: str(),
  }),
  z.object({ kind: z.literal('user'), _id: str(), username: str(), email: str(), role: z.enum(roles) }),
  z.object({ kind: z.literal('check'), _id: str(), name: str(), target: str(), paused: z.boolean(), state: str() }),
  z.object({ kind: z.literal('group'), _id: str(), name: str(), emails: z.number().int(), slackEnabled: z.boolean(), slackChannel: str().nullable() }),
]);
export type SearchHit = z.infer<typeof searchHitSchema>;

/**
 * Hits of each kind in that kind's order: alerts Active first, then Snoozed, then Resolved, each
 * newest first (what needs a person leads every picker); servers newest first; users, checks and
 * groups by name.
 */
export const searchResultSchema = z.object({ result: z.object({ hits: z.array(searchHitSchema) }) });
export type SearchResult = z.infer<typeof searchResultSchema>;

/** The words of a search text, lower-cased, as the server matches them. */
export function searchWords(q: string): string[] {
  return q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, SEARCH_MAX_WORDS);
}
