import { previewMatch } from '../alerting/preview';
import { isUuid } from '../contract/ids';
import type { Matcher, MatchPreview, WindowOccurrence } from '../contract/routing';
import type { Db } from '../db/client';
import { maintenanceWindows } from '../db/schema';
import { badRequest } from '../http/errors';
import { scheduleOf } from './resource';

/** Which servers and firing alerts a window over these servers and matchers would cover now. */
export async function previewWindow(db: Db, input: { serverIds: string[]; matchers: Matcher[] }): Promise<MatchPreview> {
  const bad = input.serverIds.findIndex((id) => !isUuid(id));
  if (bad >= 0) throw badRequest(`serverIds.${bad}: no server with id "${input.serverIds[bad]}"`, `serverIds.${bad}`);
  return previewMatch(db, input);
}

/** Every window's occurrences in a calendar range (checked by the query's schema), by start then name. */
export async function windowOccurrences(db: Db, input: { from: Date; to: Date }): Promise<WindowOccurrence[]> {
  const rows = await db.select().from(maintenanceWindows);
  const out: WindowOccurrence[] = rows.flatMap((w) => scheduleOf(w).between(input.from, input.to, 200).map((o) => ({ windowId: w.id, name: w.name, start: o.start.toISOString(), end: o.end.toISOString() })));
  out.sort((x, y) => x.start.localeCompare(y.start) || x.name.localeCompare(y.name));
  return out;
}
