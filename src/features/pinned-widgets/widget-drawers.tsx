import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { serverQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { Drawer, FormDrawerFooter } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { refreshLabel, widgetRefreshOptions, widgetTypeLabels, type PinnedWidget, type WidgetRefresh } from '../../lib/pinned-widgets';
import { panelInfo } from '../../lib/server-panels';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { useWidgets } from './use-widgets';
import { WidgetCard } from './widget-card';

const listRoute = getRouteApi('/app/pinned-widgets');
const editRoute = getRouteApi('/app/pinned-widgets/edit/$id');
const showRoute = getRouteApi('/app/pinned-widgets/show/$id');

const refreshOptions = widgetRefreshOptions.map((o) => ({ value: o.value, label: o.label }));

/** The widget of the URL; an unknown one (removed, another browser's link) goes back to the wall with a word. */
function useWidgetOrLeave(id: string): PinnedWidget | undefined {
  const { widgets } = useWidgets();
  const navigate = listRoute.useNavigate();
  const widget = widgets.find((w) => w.i === id);
  useEffect(() => {
    if (widget) return;
    toast('error', 'That widget is not pinned in this browser.');
    void navigate({ to: '/pinned-widgets', replace: true, ignoreBlocker: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [!!widget]);
  return widget;
}

/**
 * /pinned-widgets/edit/$id: a widget's title and refresh interval (`widget.edit`). Its server
 * and chart are shown but fixed: another chart is another widget.
 */
export function EditWidgetRoute() {
  const { id } = editRoute.useParams();
  const widget = useWidgetOrLeave(id);
  return widget ? <EditWidgetDrawer key={widget.i} widget={widget} /> : null;
}

function EditWidgetDrawer({ widget }: { widget: PinnedWidget }) {
  const navigate = listRoute.useNavigate();
  const initialRefresh = (widgetRefreshOptions.find((o) => o.ms === widget.refreshInterval)?.value ?? '30s') as WidgetRefresh;
  const close = (ignoreBlocker = false) => void navigate({ to: '/pinned-widgets', ignoreBlocker });
  // Only what changed is sent; a failure is reported by the run itself (a notice).
  const form = useCommandForm<'widget.edit', { title: string; refresh: WidgetRefresh }, 'title'>('widget.edit', {
    initial: { title: widget.title, refresh: initialRefresh },
    toInput: (v) => ({ title: v.title.trim(), refresh: v.refresh }),
    fixed: { widget: widget.i },
    send: 'changed',
    reports: 'runner',
    validate: (v) => (v.title.trim() ? {} : { title: 'Please enter a title' }),
    field: (name) => (name === 'title' ? name : undefined),
    onDone: (result, _input, v) => {
      if (result) toast('success', `Updated widget ${v.title.trim()}`);
      close(true);
    },
  });
  const { title, refresh } = form.values!;
  const { busy, submit } = form;
  const error = form.errors.title;
  useUnsavedChanges(form.dirty);
  const server = useQuery(serverQueryOptions(widget.server)).data?.result;

  return (
    <Drawer
      title="Edit Widget"
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={<FormDrawerFooter formId="edit-widget-form" label="Save" busyLabel="Saving…" busy={busy} onCancel={() => close()} />}
    >
      <form id="edit-widget-form" onSubmit={submit} className="max-w-md space-y-4" noValidate>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500 dark:text-slate-400">Server</dt>
          <dd>{server ? `${server.hostname} (${server.ipaddress})` : '--'}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Widget Type</dt>
          <dd>{widgetTypeLabels[widget.type]}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Widget</dt>
          <dd>{server ? panelInfo(server.operating_system, widget.panelId).title : `Panel ${widget.panelId}`}</dd>
        </dl>
        <TextField
          label="Title"
          value={title}
          onChange={(v) => form.set('title', v)}
          errorMessage={error}
          isRequired
          autoFocus
        />
        <Select label="Refresh Interval" options={refreshOptions} value={refresh} onChange={(v) => form.set('refresh', v)} isRequired />
      </form>
    </Drawer>
  );
}

/** /pinned-widgets/show/$id: one widget large in a drawer, refreshing as it does on the wall. */
export function ShowWidgetRoute() {
  const { id } = showRoute.useParams();
  const widget = useWidgetOrLeave(id);
  const navigate = listRoute.useNavigate();
  const { run } = useCommandRunner();
  if (!widget) return null;
  const close = () => void navigate({ to: '/pinned-widgets' });
  return (
    <Drawer title={widget.title} isOpen onOpenChange={(open) => !open && close()}>
      <p className="mb-3 text-sm text-slate-500 dark:text-slate-400">Refreshes every {refreshLabel(widget.refreshInterval)}.</p>
      <div className="h-[440px]">
        <WidgetCard
          widget={widget}
          initialHeight={440}
          onEdit={() => void navigate({ to: '/pinned-widgets/edit/$id', params: { id: widget.i } })}
          onRemove={async () => {
            if (await run('widget.remove', { widget: widget.i })) close();
          }}
        />
      </div>
    </Drawer>
  );
}
