import { getRouteApi } from '@tanstack/react-router';
import type { CommandResult } from '../../../commands/define-command';
import { osLabels, type ServerField, type ServerFields } from '../../../commands/server/server-fields';
import { DEFAULT_AGENT_PORT, operatingSystems, type Server } from '../../../server/contract/servers';
import { serverQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { EditDrawerRoute } from '../../lib/edit-drawer-route';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/servers');

type Os = (typeof operatingSystems)[number];
interface Values {
  hostname: string;
  ipaddress: string;
  os: Os | null;
  port: string;
}

const osOptions = operatingSystems.map((o) => ({ value: o, label: osLabels[o] }));
const fromServer = (s: Server): Values => ({ hostname: s.hostname, ipaddress: s.ipaddress, os: s.operating_system, port: String(s.agentPort) });

/** The contract's messages name API fields ("ipaddress must be …"); next to a labelled input, use the label. */
function humanize(message: string): string {
  return message.replace(/^hostname\b/, 'Hostname').replace(/^ipaddress\b/, 'IP address').replace(/^agentPort\b/, 'Agent port');
}

const portOf = (port: string) => (port.trim() === '' ? undefined : /^\d+$/.test(port.trim()) ? Number(port.trim()) : Number.NaN);
/** The form as the command's fields; the rules are the command's (and the server's), checked before sending so every field can say what is wrong. */
const toFields = (v: Values) => ({ hostname: v.hostname, ipaddress: v.ipaddress, os: v.os ?? undefined, port: portOf(v.port) });

/** /servers/create: a 756 px drawer over the list (docs/decisions.md). */
export function CreateServerRoute() {
  const navigate = listRoute.useNavigate();
  const allowed = useLeaveUnlessAllowed('server.create', () => void navigate({ to: '/servers', search: (s) => s, replace: true, ignoreBlocker: true }));
  if (!allowed) return null;
  return (
    <ServerFormDrawer
      mode="create"
      initial={{ hostname: '', ipaddress: '', os: null, port: String(DEFAULT_AGENT_PORT) }}
      onClose={(ignoreBlocker) => void navigate({ to: '/servers', search: (s) => s, ignoreBlocker })}
      onDone={(result) => {
        const created = result?.data as Server;
        toast('success', `Created server ${created.hostname}`);
        // Next step is the agent set-up, which the detail shows for a server without an agent.
        void navigate({ to: '/servers/show/$id', params: { id: created._id }, ignoreBlocker: true });
      }}
    />
  );
}

/** /servers/edit/$id: the same drawer, filled with the server; a failed load returns to the list. */
export function EditServerRoute() {
  return (
    <EditDrawerRoute command="server.edit" query={serverQueryOptions} noun="server" list="/servers">
      {(server, close) => (
          <ServerFormDrawer
            mode="edit"
            initial={server ? fromServer(server) : null}
            server={server?._id}
            onClose={close}
            onDone={(result, input) => {
              if (result) toast('success', `Updated server ${input.hostname ?? server!.hostname}`);
              close(true);
            }}
          />
      )}
    </EditDrawerRoute>
  );
}

interface ServerFormDrawerProps {
  mode: 'create' | 'edit';
  /** null while the server loads. */
  initial: Values | null;
  /** The server being edited. */
  server?: string;
  onClose: (ignoreBlocker?: boolean) => void;
  /** After the run (null: nothing changed, nothing ran). */
  onDone: (result: CommandResult | null, input: Partial<ServerFields>) => void;
}

function ServerFormDrawer({ mode, initial, server, onClose, onDone }: ServerFormDrawerProps) {
  // An edit sends only what changed; `server.edit` with no field would open this form again.
  const form = useCommandForm<'server.create' | 'server.edit', Values, ServerField>(mode === 'create' ? 'server.create' : 'server.edit', {
    initial,
    toInput: toFields,
    ...(mode === 'edit' ? { fixed: { server }, send: 'changed' as const } : {}),
    message: (field, text, issue) =>
      !issue ? humanize(text) : field === 'os' ? 'Choose the operating system' : field === 'port' && Number.isNaN(issue.value) ? 'Agent port must be a whole number' : humanize(issue.message),
    onDone: (result, input) => onDone(result, input as Partial<ServerFields>),
  });
  const { values, errors, formError, busy } = form;
  useUnsavedChanges(form.dirty);

  const formId = `server-${mode}-form`;
  const set = (k: 'hostname' | 'ipaddress' | 'port') => (v: string) => form.set(k, v);
  const submit = form.submit;

  const title = mode === 'create' ? 'Create Server' : 'Update Server';
  return (
    <FormDrawer title={title} formId={formId} mode={mode} busy={busy} loading={!values} onClose={onClose}>
      {values && (
        <form id={formId} onSubmit={submit} className="max-w-md space-y-4" noValidate>
          <TextField label="Hostname" placeholder="e.g. web-01" value={values.hostname} onChange={set('hostname')} isRequired errorMessage={errors.hostname} autoFocus />
          <TextField label="IP Address" placeholder="e.g. 10.0.0.12" value={values.ipaddress} onChange={set('ipaddress')} isRequired errorMessage={errors.ipaddress} />
          <Select
            label="Operating System"
            placeholder="Select the operating system"
            options={osOptions}
            value={values.os}
            onChange={(os) => form.set('os', os)}
            isRequired
            errorMessage={errors.os}
          />
          <TextField label="Agent port" inputMode="numeric" value={values.port} onChange={set('port')} errorMessage={errors.port} />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            The port the monitoring agent (node exporter or windows exporter) listens on; {DEFAULT_AGENT_PORT} unless you changed it.
          </p>
          {formError && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {formError}
            </p>
          )}
        </form>
      )}
    </FormDrawer>
  );
}
