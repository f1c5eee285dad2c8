import { and, eq, isNull } from 'drizzle-orm';
import type { AuditScope } from '../audit/trail';
import type { Whoami } from '../contract/auth';
import { titleOf, type PostedIncident } from '../contract/status-pages';
import type { Db } from '../db/client';
import { statusIncidents, statusPosts } from '../db/schema';
import { conflict } from '../http/errors';
import { findStatusPage, statusPageAuditTarget } from './pages';

/** status.post: adds an update (markdown) to the page's open incident, or opens one with it (titled by the update's first line unless given one). */
export async function postStatusUpdate(tx: Db, input: { id: string; body: string; title?: string }, actor: Whoami, audit: AuditScope): Promise<PostedIncident> {
  const page = await findStatusPage(tx, input.id);
  audit.target(statusPageAuditTarget(page));
  const { body, title } = input;
  let [incident] = await tx.select().from(statusIncidents).where(and(eq(statusIncidents.pageId, page.id), isNull(statusIncidents.resolvedAt))).limit(1);
  const opened = !incident;
  if (!incident) [incident] = await tx.insert(statusIncidents).values({ pageId: page.id, title: title ?? titleOf(body) }).returning();
  else if (title) [incident] = await tx.update(statusIncidents).set({ title }).where(eq(statusIncidents.id, incident.id)).returning();
  const [post] = await tx.insert(statusPosts).values({ incidentId: incident!.id, body, createdBy: actor._id }).returning();
  return { incident: { title: incident!.title, startedAt: incident!.createdAt.toISOString(), resolvedAt: null }, post: { at: post!.createdAt.toISOString(), body }, opened };
}

/** status.resolve: closes the page's open incident with a last update (a plain one unless given); a 409 when none is open. */
export async function resolveStatusIncident(tx: Db, input: { id: string; body?: string }, actor: Whoami, audit: AuditScope): Promise<PostedIncident> {
  const page = await findStatusPage(tx, input.id);
  audit.target(statusPageAuditTarget(page));
  const text = input.body || 'This incident has been resolved.';
  const now = new Date();
  const [closed] = await tx
    .update(statusIncidents)
    .set({ resolvedAt: now })
    .where(and(eq(statusIncidents.pageId, page.id), isNull(statusIncidents.resolvedAt)))
    .returning();
  if (!closed) throw conflict(`The status page "${page.slug}" has no open incident to resolve`);
  await tx.insert(statusPosts).values({ incidentId: closed.id, body: text, resolves: true, createdBy: actor._id, createdAt: now });
  return { incident: { title: closed.title, startedAt: closed.createdAt.toISOString(), resolvedAt: closed.resolvedAt!.toISOString() } };
}
