import { z } from 'zod';
import {
  refreshToMs,
  widgetPanels,
  widgetRefreshOptions,
  widgetRefreshValues,
  widgetTypeLabels,
  widgetTypes,
  writeWidgets,
  type PinnedWidget,
} from '../../src/lib/pinned-widgets';
import { placeNew } from '../../src/lib/widget-layout';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';
import { needsStorage, newWidgetId, storeOf, widgetsOf } from './widget-store';

/**
 * SPEC §2 Pinned Widgets: the "Add New Widget" drawer's Save, and the same from the palette or
 * the command line (`widget.pin web-01 memory "RAM Used" --refresh 1m`). The panel is named by
 * id or title among the panels of that type for the server's operating system; the widget goes
 * 5×5 under the others.
 */
export const pinWidget = defineCommand({
  id: 'widget.pin',
  title: 'Pin widget',
  category: 'Pinned widgets',
  description: 'Pin a chart of a server to the Pinned Widgets page.',
  input: z.object({
    server: z.string().trim().min(1, 'server is required'),
    type: z.enum(widgetTypes),
    panel: z.union([z.number().int().positive(), z.string().trim().min(1, 'panel is required')]),
    refresh: z.enum(widgetRefreshValues).default('30s'),
    title: z.string().trim().min(1).optional(),
  }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { name: 'type', label: 'Widget Type', kind: 'enum', positional: true, options: widgetTypes.map((t) => ({ value: t, label: widgetTypeLabels[t] })) },
    {
      name: 'panel',
      label: 'Widget',
      kind: 'text',
      positional: true,
      placeholder: 'Widget (panel id or title)',
      // The palette offers the charts this server can draw for the chosen type (issue 13: it offered none).
      async choices(values, ctx) {
        const type = widgetTypes.find((t) => t === values.type);
        if (typeof values.server !== 'string' || !type) return [];
        const found = await resolveServer(ctx.api, values.server);
        return widgetPanels(found.operating_system, type).map((p) => ({ value: String(p.id), label: p.title }));
      },
    },
    { name: 'refresh', label: 'Refresh Interval', kind: 'enum', optional: true, options: widgetRefreshOptions.map((o) => ({ value: o.value, label: o.label })) },
    { name: 'title', label: 'Title', kind: 'text', optional: true },
  ],
  permission: 'read',
  enabled: needsStorage,
  async run({ server, type, panel, refresh, title }, ctx) {
    const store = storeOf(ctx);
    const found = await resolveServer(ctx.api, server);
    // The drawer offers only these (SPEC §7 server selector); a command must not pin what cannot draw.
    if (found.status !== 'active') throw new CommandError(`${found.hostname} is ${found.status}: only active servers can be pinned.`);
    if (!found.isAgentConfigured) throw new CommandError(`${found.hostname} has no configured agent yet, so it has no charts to pin.`);
    const os = found.operating_system;
    const panels = widgetPanels(os, type);
    const ref = String(panel).trim();
    const byId = /^\d+$/.test(ref) ? panels.find((p) => p.id === Number(ref)) : undefined;
    const byTitle = panels.filter((p) => p.title.toLowerCase() === ref.toLowerCase());
    const chosen = byId ?? (byTitle.length === 1 ? byTitle[0] : undefined);
    if (!chosen) {
      const list = panels.map((p) => `${p.id} ${p.title}`).join(', ');
      throw new CommandError(`No ${widgetTypeLabels[type]} widget "${ref}" for ${os === 'windows' ? 'Windows' : 'Linux'}. Choose one of: ${list}.`);
    }
    const widgets = widgetsOf(ctx);
    const widget: PinnedWidget = {
      server: found._id,
      type,
      title: title ?? chosen.title,
      panelId: chosen.id,
      refreshInterval: refreshToMs(refresh),
      ...placeNew(widgets),
      i: newWidgetId(),
    };
    writeWidgets(store, [...widgets, widget]);
    return { message: `Pinned **${widget.title}** of **${found.hostname}**, refreshing every ${refresh}.`, data: widget };
  },
  inverse: (_input, result) => {
    const w = result.data as PinnedWidget | undefined;
    return w ? { id: 'widget.remove', input: { widget: w.i } } : null;
  },
});
