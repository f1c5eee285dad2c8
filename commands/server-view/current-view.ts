import * as z from 'zod/mini';
import { serverDetailHref, serverDetailSearchSchema, serverIdFromPath, type ServerDetailSearch } from '../../src/lib/server-view';
import type { CommandContext } from '../define-command';

/** The server detail that is open now, with its URL state, or null on any other screen. */
export function openServerView(ctx: CommandContext): { serverId: string; search: ServerDetailSearch } | null {
  const location = ctx.location?.();
  if (!location) return null;
  const serverId = serverIdFromPath(location.pathname);
  if (!serverId) return null;
  const parsed = z.safeParse(serverDetailSearchSchema, location.search ?? {});
  return { serverId, search: parsed.success ? parsed.data : {} };
}

export const NO_SERVER_DETAIL = "Open a server's detail page first (Servers, then a server).";

/** `enabled` of the view-state commands: they change the open server detail's URL. */
export function needsServerDetail(ctx: CommandContext): true | string {
  return openServerView(ctx) ? true : NO_SERVER_DETAIL;
}

/** Changes the open server detail's URL state; `undefined` in the patch removes a value. */
export function changeView(ctx: CommandContext, patch: Partial<Record<keyof ServerDetailSearch, unknown>>): { serverId: string; search: ServerDetailSearch } {
  const view = openServerView(ctx);
  if (!view) throw new Error(NO_SERVER_DETAIL);
  ctx.navigate(serverDetailHref(view.serverId, { ...view.search, ...patch }));
  return view;
}
