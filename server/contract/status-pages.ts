import { z } from 'zod';
import { str } from './common';

/**
 * Public status pages (issue 16 §3, docs/status-pages.md): the page an admin composes (signed-in
 * calls) and the public view of it (no sign-in). The public view is its own schema so that nothing
 * the page does not show (ids, hostnames, IP addresses, check targets, who posted) can reach it.
 */

export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_GROUPS = 20;
export const MAX_ITEMS = 100;
export const MAX_POST_CHARS = 10_000;
/** Days of uptime bars on a page. */
export const STATUS_DAYS = 90;

export const statusItemKinds = ['server', 'check'] as const;
export type StatusItemKind = (typeof statusItemKinds)[number];

const displayName = str({ error: 'displayName is required' }).trim().min(1, 'displayName is required').max(100, 'displayName is too long (at most 100 characters)');

export const statusItemInputSchema = z
  .object({
    kind: z.enum(statusItemKinds, { error: 'kind must be server or check' }),
    id: z.uuid({ error: (issue) => (issue.input === undefined ? 'id is required' : 'id must be the id of a server or a check') }),
    displayName,
    /** Show the server's IP address (a check's target) on the public page; off unless chosen. */
    showAddress: z.boolean({ error: 'showAddress must be true or false' }).default(false),
  })
  .strict();
export type StatusItemInput = z.input<typeof statusItemInputSchema>;

export const statusGroupInputSchema = z
  .object({
    name: str({ error: 'name is required' }).trim().max(100, 'name is too long (at most 100 characters)').default(''),
    items: z.array(statusItemInputSchema).max(MAX_ITEMS, `at most ${MAX_ITEMS} items in a group`),
  })
  .strict();
export type StatusGroupInput = z.input<typeof statusGroupInputSchema>;

const fields = {
  slug: str({ error: 'slug is required' })
    .trim()
    .min(1, 'slug is required')
    .max(60, 'slug is too long (at most 60 characters)')
    .regex(SLUG, 'slug may contain lower-case letters, digits and single hyphens (e.g. "public-api")'),
  title: str({ error: 'title is required' }).trim().min(1, 'title is required').max(100, 'title is too long (at most 100 characters)'),
  description: str().trim().max(1000, 'description is too long (at most 1,000 characters)'),
  groups: z.array(statusGroupInputSchema).max(MAX_GROUPS, `at most ${MAX_GROUPS} groups`),
};

export const createStatusPageSchema = z.object(fields).partial({ description: true, groups: true }).strict();
export type CreateStatusPage = z.input<typeof createStatusPageSchema>;

export const updateStatusPageSchema = z
  .object(fields)
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to update' });
export type UpdateStatusPage = z.input<typeof updateStatusPageSchema>;

export const statusItemSchema = z.object({
  kind: z.enum(statusItemKinds),
  id: str(),
  displayName: str(),
  showAddress: z.boolean(),
  /** The server's hostname or the check's name as the console knows it (signed-in view only); null when it was deleted. */
  name: str().nullable(),
});
export const statusPageSchema = z.object({
  _id: str(),
  slug: str(),
  title: str(),
  description: str(),
  groups: z.array(z.object({ name: str(), items: z.array(statusItemSchema) })),
  /** The open incident's title, if one is open. */
  openIncident: str().nullable(),
  createdAt: str(),
  updatedAt: str(),
});
export type StatusPage = z.infer<typeof statusPageSchema>;

export const statusPostInputSchema = z
  .object({
    body: str({ error: 'body is required' })
      .trim()
      .min(1, 'body is required: the update to post (markdown)')
      .max(MAX_POST_CHARS, `body is too long (at most ${MAX_POST_CHARS.toLocaleString('en')} characters)`),
    /** The incident's title when this post opens one; by default the post's first line. */
    title: str().trim().min(1, 'title may not be empty').max(120, 'title is too long (at most 120 characters)').optional(),
  })
  .strict();
export type StatusPostInput = z.input<typeof statusPostInputSchema>;

export const statusResolveInputSchema = z
  .object({
    body: str().trim().max(MAX_POST_CHARS, `body is too long (at most ${MAX_POST_CHARS.toLocaleString('en')} characters)`).optional(),
  })
  .strict();
export type StatusResolveInput = z.input<typeof statusResolveInputSchema>;

// ---------------------------------------------------------------------------------------------
// The public view: GET /api/public/status/{slug}, no sign-in. Only what the page shows.

export const publicStates = ['up', 'down', 'maintenance', 'unknown'] as const;
export type PublicState = (typeof publicStates)[number];
export const publicStateLabels: Record<PublicState, string> = { up: 'Operational', down: 'Down', maintenance: 'Maintenance', unknown: 'No data' };

export const publicItemSchema = z
  .object({
    name: str(),
    state: z.enum(publicStates),
    /** Only when the admin chose to show it: the server's IP address or the check's target. */
    address: str().optional(),
    /** Percent up over the days that have data; null without any. */
    uptime90d: z.number().nullable(),
    /** STATUS_DAYS UTC days, oldest first: percent up, or null (no data that day). */
    days: z.array(z.object({ day: str(), uptime: z.number().nullable() }).strict()),
  })
  .strict();
export type PublicItem = z.infer<typeof publicItemSchema>;

export const publicPostSchema = z.object({ at: str(), body: str(), resolves: z.boolean() }).strict();
export const publicIncidentSchema = z
  .object({
    title: str(),
    startedAt: str(),
    resolvedAt: str().nullable(),
    /** Oldest first. */
    posts: z.array(publicPostSchema),
  })
  .strict();
export type PublicIncident = z.infer<typeof publicIncidentSchema>;

export const publicStatusSchema = z
  .object({
    title: str(),
    description: str(),
    /** up: all operational; down: something is down; unknown: something has no data (and nothing is down). */
    overall: z.enum(['up', 'down', 'unknown']),
    groups: z.array(z.object({ name: str(), items: z.array(publicItemSchema) }).strict()),
    /** The open incident first, then the newest resolved ones. */
    incidents: z.array(publicIncidentSchema),
    generatedAt: str(),
  })
  .strict();
export type PublicStatus = z.infer<typeof publicStatusSchema>;

/** The incident title a post gives when none is given: its first line, without markdown marks. */
export function titleOf(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? '';
  const plain = line
    .replace(/^\s*(#{1,6}\s+|[-*+]\s+|>\s*)/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~]/g, '')
    .trim();
  return (plain || 'Incident').slice(0, 120);
}

/** What status.post and status.resolve answer: the incident (and the post made). */
export const postedIncidentSchema = z.object({
  incident: z.object({ title: str(), startedAt: str(), resolvedAt: str().nullable() }),
  post: z.object({ at: str(), body: str() }).optional(),
  opened: z.boolean().optional(),
});
export type PostedIncident = z.infer<typeof postedIncidentSchema>;
