import { getRouteApi } from '@tanstack/react-router';
import { Button } from '../../components/ui/button';
import { addressAndOs, ServerPicker } from '../../components/servers/server-picker';
import { Drawer, FormDrawerFooter } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast';
import { widgetPanels, widgetRefreshOptions, widgetTypeLabels, widgetTypes, type WidgetRefresh, type WidgetType } from '../../lib/pinned-widgets';
import type { ServerOs } from '../../lib/server-panels';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { useCommandForm } from '../../app/command-host/use-command-form';

const listRoute = getRouteApi('/app/pinned-widgets');

/** SPEC §5 Add widget form: the four required choices and their messages. */
export const ADD_WIDGET_MESSAGES = {
  server: 'Please select Server',
  type: 'Please select Widget Type',
  panel: 'Please select Widget',
  refresh: 'Please select Refresh Interval',
} as const;
type Field = keyof typeof ADD_WIDGET_MESSAGES;

interface ChosenServer {
  id: string;
  hostname: string;
  os: ServerOs;
}
interface Values {
  server: ChosenServer | null;
  type: WidgetType | null;
  panel: string | null;
  refresh: WidgetRefresh | null;
}

const typeOptions = widgetTypes.map((t) => ({ value: t, label: widgetTypeLabels[t] }));
const refreshOptions = widgetRefreshOptions.map((o) => ({ value: o.value, label: o.label }));

/**
 * /pinned-widgets/create: the 'Add New Widget' drawer (756 px) with Save. Nothing is chosen
 * up front, so each of SPEC's four messages can appear; Save with a choice missing shows them
 * and adds nothing. Save runs `widget.pin`.
 */
export function AddWidgetRoute() {
  const navigate = listRoute.useNavigate();
  const close = (ignoreBlocker = false) => void navigate({ to: '/pinned-widgets', ignoreBlocker });
  // A refusal is reported by the run itself (a notice); SPEC's four messages are the form's own.
  const form = useCommandForm<'widget.pin', Values, Field>('widget.pin', {
    initial: { server: null, type: null, panel: null, refresh: null },
    toInput: (v) => ({ server: v.server?.id, type: v.type ?? undefined, panel: v.panel ? Number(v.panel) : undefined, refresh: v.refresh ?? undefined }),
    validate: (v) => {
      const found: Partial<Record<Field, string>> = {};
      for (const f of Object.keys(ADD_WIDGET_MESSAGES) as Field[]) if (!v[f]) found[f] = ADD_WIDGET_MESSAGES[f];
      return found;
    },
    field: () => undefined,
    reports: 'runner',
    onDone: (result, _input, v) => {
      toast('success', `Pinned ${(result?.data as { title?: string } | undefined)?.title ?? 'the widget'} of ${v.server!.hostname}`);
      close(true);
    },
  });
  const { server, type, panel, refresh } = form.values!;
  const { errors, busy, submit } = form;
  useUnsavedChanges(form.dirty);
  const setServer = (s: ChosenServer | null) => form.update((v) => ({ ...v, server: s }));
  const setPanel = (p: string | null) => form.update((v) => ({ ...v, panel: p }));
  const setType = (t: WidgetType | null) => form.update((v) => ({ ...v, type: t }));
  const setRefresh = (r: WidgetRefresh | null) => form.update((v) => ({ ...v, refresh: r }));

  const panelOptions = server && type ? widgetPanels(server.os, type).map((p) => ({ value: String(p.id), label: p.title })) : [];

  const clear = (f: Field) => form.setErrors((e) => ({ ...e, [f]: undefined }));

  return (
    <Drawer
      title="Add New Widget"
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={<FormDrawerFooter formId="add-widget-form" label="Save" busyLabel="Saving…" busy={busy} onCancel={() => close()} />}
    >
      <form id="add-widget-form" onSubmit={submit} className="max-w-md space-y-4" noValidate>
        <div>
          <ServerPicker
            label="Server"
            placeholder="Search by Hostname"
            description={addressAndOs}
            emptyText="No active, configured servers match"
            chosen={server}
            onClear={() => {
              setServer(null);
              setPanel(null);
            }}
            onSelect={(s) => {
              if (server?.os !== s.operating_system) setPanel(null);
              setServer({ id: s._id, hostname: s.hostname, os: s.operating_system });
              clear('server');
            }}
          />
          {errors.server && <p className="mt-1 text-xs text-red-600 dark:text-red-400">{errors.server}</p>}
        </div>
        <Select
          label="Widget Type"
          placeholder="Select Widget Type"
          options={typeOptions}
          value={type}
          onChange={(t) => {
            if (t !== type) setPanel(null);
            setType(t);
            clear('type');
          }}
          isRequired
          errorMessage={errors.type}
        />
        <Select
          label="Widget"
          placeholder={server && type ? 'Select Widget' : 'Choose a server and a widget type first'}
          options={panelOptions}
          value={panel}
          onChange={(p) => {
            setPanel(p);
            clear('panel');
          }}
          isRequired
          errorMessage={errors.panel}
        />
        <Select
          label="Refresh Interval"
          placeholder="Select Refresh Interval"
          options={refreshOptions}
          value={refresh}
          onChange={(r) => {
            setRefresh(r);
            clear('refresh');
          }}
          isRequired
          errorMessage={errors.refresh}
        />
      </form>
    </Drawer>
  );
}
