import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { serverSelectorQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { ComboBox } from '../../components/ui/combo-box';
import { Drawer, FormDrawerFooter } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast';
import { widgetPanels, widgetRefreshOptions, widgetTypeLabels, widgetTypes, type WidgetRefresh, type WidgetType } from '../../lib/pinned-widgets';
import type { ServerOs } from '../../lib/server-panels';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { useCommandRunner } from '../../app/command-host/run-command';

const listRoute = getRouteApi('/app/pinned-widgets');

/** SPEC §9: option searches wait 300 ms after the last keystroke. */
const OPTION_DEBOUNCE_MS = 300;

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

const typeOptions = widgetTypes.map((t) => ({ value: t, label: widgetTypeLabels[t] }));
const refreshOptions = widgetRefreshOptions.map((o) => ({ value: o.value, label: o.label }));

/**
 * /pinned-widgets/create: the 'Add New Widget' drawer (756 px) with Save. Nothing is chosen
 * up front, so each of SPEC's four messages can appear; Save with a choice missing shows them
 * and adds nothing. Save runs `widget.pin`.
 */
export function AddWidgetRoute() {
  const navigate = listRoute.useNavigate();
  const { run } = useCommandRunner();
  const [server, setServer] = useState<ChosenServer | null>(null);
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const [type, setType] = useState<WidgetType | null>(null);
  const [panel, setPanel] = useState<string | null>(null);
  const [refresh, setRefresh] = useState<WidgetRefresh | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  useUnsavedChanges(!done && !!(server || type || panel || refresh));

  useEffect(() => {
    const t = setTimeout(() => setDebounced(text.trim()), OPTION_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [text]);
  const query = useQuery({ ...serverSelectorQueryOptions(debounced), placeholderData: keepPreviousData });
  const items = (query.data?.result.data ?? []).map((s) => ({ id: s._id, label: s.hostname, description: `${s.ipaddress} · ${s.operating_system === 'windows' ? 'Windows' : 'Linux'}` }));
  const panelOptions = server && type ? widgetPanels(server.os, type).map((p) => ({ value: String(p.id), label: p.title })) : [];

  const clear = (f: Field) => setErrors((e) => ({ ...e, [f]: undefined }));
  const close = (ignoreBlocker = false) => void navigate({ to: '/pinned-widgets', ignoreBlocker });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found: Partial<Record<Field, string>> = {};
    if (!server) found.server = ADD_WIDGET_MESSAGES.server;
    if (!type) found.type = ADD_WIDGET_MESSAGES.type;
    if (!panel) found.panel = ADD_WIDGET_MESSAGES.panel;
    if (!refresh) found.refresh = ADD_WIDGET_MESSAGES.refresh;
    setErrors(found);
    if (!server || !type || !panel || !refresh) return;
    setBusy(true);
    const result = await run('widget.pin', { server: server.id, type, panel: Number(panel), refresh });
    setBusy(false);
    if (!result) return;
    setDone(true);
    toast('success', `Pinned ${(result.data as { title?: string } | undefined)?.title ?? 'the widget'} of ${server.hostname}`);
    close(true);
  };

  return (
    <Drawer
      title="Add New Widget"
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={<FormDrawerFooter formId="add-widget-form" label="Save" busyLabel="Saving…" busy={busy} onCancel={() => close()} />}
    >
      <form id="add-widget-form" onSubmit={submit} className="max-w-md space-y-4" noValidate>
        <div>
          <ComboBox
            label="Server"
            placeholder="Search by Hostname"
            inputValue={text}
            onInputChange={(t) => {
              setText(t);
              // Typing over a chosen server un-chooses it: the box shows what will be saved.
              if (server && t !== server.hostname) {
                setServer(null);
                setPanel(null);
              }
            }}
            items={items}
            selectedKey={server?.id ?? null}
            isLoading={query.isFetching}
            emptyText={query.isError ? 'Could not load servers' : 'No active, configured servers match'}
            onSelect={(id) => {
              const s = query.data?.result.data.find((x) => x._id === id);
              if (!s) return;
              if (server?.os !== s.operating_system) setPanel(null);
              setServer({ id: s._id, hostname: s.hostname, os: s.operating_system });
              setText(s.hostname);
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
