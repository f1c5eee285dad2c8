import { z } from 'zod';
import { tabPanels, panelInfo, type PanelInfo, type ServerOs } from './server-panels';

/**
 * Pinned widgets (SPEC §3): kept only in the browser, in localStorage `widgets`, as a list of
 * { server, type, title, panelId, refreshInterval (ms), x, y, w, h, i }. `server` holds the
 * server's id (docs/decisions.md). What is stored may be old, hand-edited or written by another
 * version, so reading validates every entry and drops the ones that do not fit instead of
 * failing the page.
 */

export const WIDGETS_KEY = 'widgets';

export const widgetTypes = ['cpu', 'memory', 'disk', 'network'] as const;
export type WidgetType = (typeof widgetTypes)[number];
export const widgetTypeLabels: Record<WidgetType, string> = { cpu: 'CPU', memory: 'Memory', disk: 'Disk', network: 'Network' };

/** SPEC §9: widget refresh options 10s, 30s, 1m, 5m, 10m; pinned charts refresh every 30 s by default. */
export const widgetRefreshOptions = [
  { value: '10s', label: '10s', ms: 10_000 },
  { value: '30s', label: '30s', ms: 30_000 },
  { value: '1m', label: '1m', ms: 60_000 },
  { value: '5m', label: '5m', ms: 300_000 },
  { value: '10m', label: '10m', ms: 600_000 },
] as const;
export type WidgetRefresh = (typeof widgetRefreshOptions)[number]['value'];
export const widgetRefreshValues = widgetRefreshOptions.map((o) => o.value) as unknown as readonly [WidgetRefresh, ...WidgetRefresh[]];
export const DEFAULT_WIDGET_REFRESH_MS = 30_000;

export function refreshToMs(value: WidgetRefresh): number {
  return widgetRefreshOptions.find((o) => o.value === value)!.ms;
}

export function refreshLabel(ms: number): string {
  return widgetRefreshOptions.find((o) => o.ms === ms)?.label ?? `${Math.round(ms / 1000)}s`;
}

const refreshMsValues = new Set<number>(widgetRefreshOptions.map((o) => o.ms));

export const pinnedWidgetSchema = z.object({
  server: z.string().min(1),
  type: z.enum(widgetTypes),
  title: z.string(),
  panelId: z.number().int().positive(),
  refreshInterval: z.number().refine((ms) => refreshMsValues.has(ms), 'not one of the widget refresh options'),
  x: z.number().int().min(0),
  y: z.number().int().min(0),
  w: z.number().int().min(1),
  h: z.number().int().min(1),
  i: z.string().min(1),
});
export type PinnedWidget = z.infer<typeof pinnedWidgetSchema>;

/** Where widgets are kept: localStorage in the app, a Map in tests; commands reach it through their context. */
export interface KeyValueStore {
  get: (key: string) => string | null;
  set: (key: string, value: string) => void;
}

/**
 * The valid widgets of a stored value. Anything that is not JSON or not a list reads as no
 * widgets; entries that fail the schema are dropped; a repeated `i` keeps its first entry
 * (the grid keys children by it).
 */
export function parseWidgets(raw: string | null): PinnedWidget[] {
  if (!raw) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const out: PinnedWidget[] = [];
  for (const entry of value) {
    const parsed = pinnedWidgetSchema.safeParse(entry);
    if (!parsed.success || seen.has(parsed.data.i)) continue;
    seen.add(parsed.data.i);
    out.push(parsed.data);
  }
  return out;
}

export function readWidgets(store: KeyValueStore): PinnedWidget[] {
  return parseWidgets(store.get(WIDGETS_KEY));
}

export function writeWidgets(store: KeyValueStore, widgets: readonly PinnedWidget[]): void {
  store.set(WIDGETS_KEY, JSON.stringify(widgets));
}

/** The panels a widget of this type may show for the OS: the panels of the server detail's tab of that name. */
export function widgetPanels(os: ServerOs, type: WidgetType): PanelInfo[] {
  return (tabPanels[os][type] ?? []).map((id) => panelInfo(os, id));
}

/** The widget type a server-detail panel belongs to (Overview panels included), or null. */
export function widgetTypeOfPanel(os: ServerOs, panelId: number): WidgetType | null {
  return widgetTypes.find((t) => (tabPanels[os][t] ?? []).includes(panelId)) ?? null;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

/**
 * localStorage as a KeyValueStore that tells subscribers about every write, from this tab (a
 * command run from the command line while the page is open) or another tab (the `storage` event).
 */
export const browserStore: KeyValueStore & { subscribe: (listener: () => void) => () => void } = {
  get: (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set: (key, value) => {
    localStorage.setItem(key, value);
    notify();
  },
  subscribe: (listener) => {
    listeners.add(listener);
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key === WIDGETS_KEY) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  },
};
