import { getRouteApi } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { osLabels, serverFieldsSchema, ServerFieldError, type ServerField, type ServerFields } from '../../../commands/server/server-fields';
import { DEFAULT_AGENT_PORT, operatingSystems, type Server } from '../../../server/contract/servers';
import { serverQueryOptions } from '../../api/servers';
import { Button } from '../../components/ui/button';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useEditRecord } from '../../lib/use-edit-record';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/servers');
const editRoute = getRouteApi('/app/servers/edit/$id');

type Os = (typeof operatingSystems)[number];
interface Values {
  hostname: string;
  ipaddress: string;
  os: Os | null;
  port: string;
}
type Errors = Partial<Record<ServerField, string>>;

const osOptions = operatingSystems.map((o) => ({ value: o, label: osLabels[o] }));
const fromServer = (s: Server): Values => ({ hostname: s.hostname, ipaddress: s.ipaddress, os: s.operating_system, port: String(s.agentPort) });

/** The contract's messages name API fields ("ipaddress must be …"); next to a labelled input, use the label. */
function humanize(message: string): string {
  return message.replace(/^hostname\b/, 'Hostname').replace(/^ipaddress\b/, 'IP address').replace(/^agentPort\b/, 'Agent port');
}

/** The same rules the command and the server apply, checked before sending so every field can say what is wrong. */
function validate(v: Values): { fields?: ServerFields; errors: Errors } {
  const port = v.port.trim() === '' ? undefined : /^\d+$/.test(v.port.trim()) ? Number(v.port.trim()) : Number.NaN;
  const parsed = serverFieldsSchema.safeParse({ hostname: v.hostname, ipaddress: v.ipaddress, os: v.os ?? undefined, port });
  if (parsed.success) return { fields: parsed.data, errors: {} };
  const errors: Errors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ServerField | undefined;
    if (!field || errors[field]) continue;
    errors[field] =
      field === 'os' ? 'Choose the operating system' : field === 'port' && Number.isNaN(port) ? 'Agent port must be a whole number' : humanize(issue.message);
  }
  return { errors };
}

/** /servers/create: a 756 px drawer over the list (docs/decisions.md). */
export function CreateServerRoute() {
  const navigate = listRoute.useNavigate();
  const runner = useCommandRunner();
  const allowed = useLeaveUnlessAllowed('server.create', () => void navigate({ to: '/servers', search: (s) => s, replace: true, ignoreBlocker: true }));
  if (!allowed) return null;
  return (
    <ServerFormDrawer
      mode="create"
      initial={{ hostname: '', ipaddress: '', os: null, port: String(DEFAULT_AGENT_PORT) }}
      onClose={(ignoreBlocker) => void navigate({ to: '/servers', search: (s) => s, ignoreBlocker })}
      onSubmit={async (fields) => {
        const result = await runner.runOrThrow('server.create', fields);
        const created = result.data as Server;
        toast('success', `Created server ${created.hostname}`);
        // Next step is the agent set-up, which the detail shows for a server without an agent.
        void navigate({ to: '/servers/show/$id', params: { id: created._id }, ignoreBlocker: true });
      }}
    />
  );
}

/** /servers/edit/$id: the same drawer, filled with the server; a failed load returns to the list. */
export function EditServerRoute() {
  const { id } = editRoute.useParams();
  const navigate = listRoute.useNavigate();
  const runner = useCommandRunner();
  const close = (ignoreBlocker = false) => void navigate({ to: '/servers', search: (s) => s, ignoreBlocker });
  const { allowed, data } = useEditRecord('server.edit', serverQueryOptions(id), 'server', close);
  const server = data?.result;
  if (!allowed) return null;
  return (
    <ServerFormDrawer
      key={id}
      mode="edit"
      initial={server ? fromServer(server) : null}
      onClose={close}
      onSubmit={async (fields) => {
        if (!server) return;
        const before = fromServer(server);
        // Only what changed; `server.edit` with no field would open this form again.
        const changes: Partial<ServerFields> = {};
        if (fields.hostname !== before.hostname) changes.hostname = fields.hostname;
        if (fields.ipaddress !== before.ipaddress) changes.ipaddress = fields.ipaddress;
        if (fields.os !== before.os) changes.os = fields.os;
        if (fields.port !== undefined && String(fields.port) !== before.port) changes.port = fields.port;
        if (Object.keys(changes).length) {
          await runner.runOrThrow('server.edit', { server: server._id, ...changes });
          toast('success', `Updated server ${fields.hostname}`);
        }
        close(true);
      }}
    />
  );
}

interface ServerFormDrawerProps {
  mode: 'create' | 'edit';
  /** null while the server loads. */
  initial: Values | null;
  onClose: (ignoreBlocker?: boolean) => void;
  /** Runs the command; throws what the command throws. */
  onSubmit: (fields: ServerFields) => Promise<void>;
}

function ServerFormDrawer({ mode, initial, onClose, onSubmit }: ServerFormDrawerProps) {
  const [values, setValues] = useState<Values | null>(initial);
  // The record arrives after the drawer opened: fill the form then, in the same drawer (a new
  // drawer per load closed and reopened it, which a person sees as a flicker).
  if (values === null && initial !== null) setValues(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const dirty = !done && !!values && !!initial && (Object.keys(values) as (keyof Values)[]).some((k) => values[k] !== initial[k]);
  useUnsavedChanges(dirty);

  const formId = `server-${mode}-form`;
  const set = (k: keyof Values) => (v: string) => {
    setValues((prev) => (prev ? { ...prev, [k]: v } : prev));
    setErrors((prev) => ({ ...prev, [k]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!values || busy) return;
    const { fields, errors: found } = validate(values);
    setErrors(found);
    setFormError(null);
    if (!fields) return;
    setBusy(true);
    try {
      await onSubmit(fields);
      setDone(true);
    } catch (err) {
      if (err instanceof ServerFieldError && err.field) setErrors({ [err.field]: humanize(err.message) });
      else setFormError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

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
            onChange={(os) => {
              setValues((prev) => (prev ? { ...prev, os } : prev));
              setErrors((prev) => ({ ...prev, os: undefined }));
            }}
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
