import { z } from 'zod';
import { readWidgets, widgetRefreshOptions, writeWidgets, type KeyValueStore, type PinnedWidget } from '../../src/lib/pinned-widgets';
import type { CommandContext, CommandResult, InverseRun } from '../define-command';
import { CommandError } from '../registry';

export const NO_BROWSER_STORAGE = 'Pinned widgets are kept in the browser: run this in the console.';

/** `enabled` of the widget commands: they need the browser storage the app gives them. */
export function needsStorage(ctx: CommandContext): true | string {
  return ctx.storage ? true : NO_BROWSER_STORAGE;
}

export function storeOf(ctx: CommandContext): KeyValueStore {
  if (!ctx.storage) throw new CommandError(NO_BROWSER_STORAGE, 'refused');
  return ctx.storage;
}

/** A widget key unique enough for one browser; no crypto.randomUUID, which plain-http origins lack. */
export function newWidgetId(now: number = Date.now(), random: () => number = Math.random): string {
  return `w-${now.toString(36)}-${Math.floor(random() * 36 ** 6).toString(36).padStart(6, '0')}`;
}

const describe = (w: PinnedWidget) => `${w.i} (${w.title})`;

/**
 * `widget` arguments name a widget by its key (`i`) or its title, case-insensitively; a title
 * that several widgets share is refused with their keys, so nothing is removed by guess.
 */
export function findWidget(widgets: readonly PinnedWidget[], ref: string): PinnedWidget {
  const value = ref.trim();
  const byId = widgets.find((w) => w.i === value);
  if (byId) return byId;
  const lower = value.toLowerCase();
  const byTitle = widgets.filter((w) => w.title.toLowerCase() === lower);
  if (byTitle.length === 1) return byTitle[0]!;
  if (byTitle.length > 1) throw new CommandError(`${byTitle.length} widgets are called "${value}": ${byTitle.map(describe).join(', ')}. Name one by its key.`);
  if (!widgets.length) throw new CommandError('There are no pinned widgets.');
  throw new CommandError(`No pinned widget is called "${value}". Pinned: ${widgets.map(describe).join(', ')}.`);
}

export function widgetsOf(ctx: CommandContext): PinnedWidget[] {
  return readWidgets(storeOf(ctx));
}

/** An optional `--x`/`--y`/`--w`/`--h`: whole cells of the widest grid; ranges depend on the widget, so `run` checks them. */
export function gridCells(name: string) {
  const message = `${name} must be a whole number of grid cells`;
  return z.number({ error: message }).int(message).optional();
}

/**
 * Changes one stored widget: finds it by key or title (`findWidget`), lets `change` check the
 * request against it (throwing changes nothing) and return its new version, and stores that in
 * its place. The edit, move and resize commands.
 */
export function updateWidget(ctx: CommandContext, ref: string, change: (found: PinnedWidget) => PinnedWidget): { before: PinnedWidget; next: PinnedWidget } {
  const store = storeOf(ctx);
  const widgets = readWidgets(store);
  const found = findWidget(widgets, ref);
  const next = change(found);
  writeWidgets(
    store,
    widgets.map((w) => (w.i === found.i ? next : w)),
  );
  return { before: found, next };
}

/**
 * Undo of widget.move / resize / edit: the same command with the values `fields` had before,
 * for the fields the run changed.
 */
export function undoWidgetChange(result: CommandResult, id: string, fields: Partial<Record<keyof PinnedWidget, string>>): InverseRun | null {
  const before = result.before as PinnedWidget | undefined;
  const after = result.data as PinnedWidget | undefined;
  if (!before || !after) return null;
  const back: Record<string, unknown> = {};
  for (const [field, arg] of Object.entries(fields) as [keyof PinnedWidget, string][]) {
    if (before[field] === after[field]) continue;
    back[arg] = field === 'refreshInterval' ? widgetRefreshOptions.find((o) => o.ms === before.refreshInterval)?.value : before[field];
  }
  return Object.keys(back).length ? { id, input: { widget: before.i, ...back } } : null;
}
