import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { CommandResult } from '../../../commands/define-command';
import { REDACTED } from '../../../commands/check/check-fields';
import { severities } from '../../../server/contract/alerts';
import { checkKindLabels, checkKinds, dnsRecordTypes, httpMethods, type Check, type CheckKind } from '../../../server/contract/checks';
import { checkQueryOptions } from '../../api/checks';
import { notificationGroupOptionsQueryOptions } from '../../api/notification-groups';
import { defaultGroupQueryOptions } from '../../api/alert-reach';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';
import { TextArea } from '../../components/ui/text-area';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { EditDrawerRoute } from '../../lib/edit-drawer-route';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/checks');

type Severity = (typeof severities)[number];
interface Values {
  name: string;
  kind: CheckKind;
  url: string;
  host: string;
  port: string;
  method: (typeof httpMethods)[number];
  status: string;
  keywordMode: 'contains' | 'lacks';
  keyword: string;
  headers: string;
  followRedirects: boolean;
  ignoreTls: boolean;
  record: (typeof dnsRecordTypes)[number];
  expect: string;
  resolver: string;
  interval: string;
  timeout: string;
  downGrace: string;
  downSeverity: Severity;
  latencyOn: boolean;
  latencyMs: string;
  latencySeverity: Severity;
  certOn: boolean;
  certDays: string;
  certSeverity: Severity;
  group: string;
}

const blank: Values = {
  name: '',
  kind: 'http',
  url: '',
  host: '',
  port: '',
  method: 'GET',
  status: '200-299',
  keywordMode: 'contains',
  keyword: '',
  headers: '',
  followRedirects: true,
  ignoreTls: false,
  record: 'A',
  expect: '',
  resolver: '',
  interval: '60',
  timeout: '10',
  downGrace: '60',
  downSeverity: 'critical',
  latencyOn: false,
  latencyMs: '2000',
  latencySeverity: 'warning',
  certOn: true,
  certDays: '14',
  certSeverity: 'warning',
  // A new check's rules notify the default group unless another is chosen (issue 24 §6).
  group: 'default',
};

function fromCheck(c: Check): Values {
  const rule = (k: string) => c.rules.find((r) => r.kind === k);
  const down = rule('down');
  const latency = rule('latency');
  const cert = rule('cert_expiry');
  return {
    name: c.name,
    kind: c.kind,
    url: c.url ?? '',
    host: c.host ?? '',
    port: c.port === null ? '' : String(c.port),
    method: c.method,
    status: c.expectedStatus,
    keywordMode: c.keywordMode === 'absent' ? 'lacks' : 'contains',
    keyword: c.keyword ?? '',
    headers: c.headers.map((h) => `${h.name}: ${h.redacted ? REDACTED : h.value}`).join('\n'),
    followRedirects: c.followRedirects,
    ignoreTls: c.ignoreTlsErrors,
    record: c.recordType ?? 'A',
    expect: c.expectedAnswer ?? '',
    resolver: c.resolver ?? '',
    interval: String(c.intervalSeconds),
    timeout: String(c.timeoutSeconds),
    downGrace: String(down?.timeLimit ?? 60),
    downSeverity: down?.severity ?? 'critical',
    latencyOn: latency?.enabled ?? false,
    latencyMs: String(latency?.threshold ?? 2000),
    latencySeverity: latency?.severity ?? 'warning',
    certOn: cert?.enabled ?? false,
    certDays: String(cert?.threshold ?? 14),
    certSeverity: cert?.severity ?? 'warning',
    group: down?.notificationGroup ?? 'none',
  };
}

const num = (v: string) => (v.trim() === '' ? undefined : /^\d+$/.test(v.trim()) ? Number(v.trim()) : Number.NaN);

/** The form as the command's flags; an edit sends only those that differ from the check's. */
function toFlags(v: Values): Record<string, unknown> {
  const f: Record<string, unknown> = { name: v.name, kind: v.kind };
  if (v.kind === 'http') {
    f.url = v.url;
    f.method = v.method;
    f.status = v.status;
    f[v.keywordMode] = v.keyword;
    f.headers = v.headers;
    f.followRedirects = v.followRedirects;
  } else {
    f.host = v.host;
  }
  if (v.kind === 'http' || v.kind === 'tls') f.ignoreTls = v.ignoreTls;
  if (v.kind === 'tcp' || v.kind === 'tls') f.port = num(v.port);
  if (v.kind === 'dns') {
    f.record = v.record;
    f.expect = v.expect;
    f.resolver = v.resolver;
  }
  f.interval = num(v.interval);
  f.timeout = num(v.timeout);
  f.downGrace = num(v.downGrace);
  f.downSeverity = v.downSeverity;
  f.latencyMs = v.latencyOn ? num(v.latencyMs) : 0;
  f.latencySeverity = v.latencySeverity;
  if (v.kind === 'http' || v.kind === 'tls') f.certDays = v.certOn ? num(v.certDays) : 0;
  f.certSeverity = v.certSeverity;
  if (v.group !== 'default') f.group = v.group;
  return f;
}

/** What the schema cannot say in the form's words: numbers typed as text, a rule switched on without its threshold. */
function validate(v: Values): Partial<Record<keyof Values, string>> {
  const errors: Partial<Record<keyof Values, string>> = {};
  const whole = (k: 'port' | 'interval' | 'timeout' | 'downGrace', label: string) => {
    if (Number.isNaN(num(v[k]))) errors[k] = `${label} must be a whole number`;
  };
  if (v.kind === 'tcp' || v.kind === 'tls') whole('port', 'Port');
  whole('interval', 'Interval');
  whole('timeout', 'Timeout');
  whole('downGrace', 'Grace period');
  const threshold = (on: boolean, text: string) => {
    const n = on ? num(text) : 0;
    return n === undefined || Number.isNaN(n) || (on && n === 0);
  };
  if (threshold(v.latencyOn, v.latencyMs)) errors.latencyMs = 'Give the response time in milliseconds';
  if ((v.kind === 'http' || v.kind === 'tls') && threshold(v.certOn, v.certDays)) errors.certDays = 'Give a number of days';
  return errors;
}

/** The API's field names (in a 400) mapped onto the form's inputs. */
const apiToForm: Record<string, keyof Values> = {
  name: 'name',
  url: 'url',
  host: 'host',
  port: 'port',
  expectedStatus: 'status',
  keyword: 'keyword',
  intervalSeconds: 'interval',
  timeoutSeconds: 'timeout',
  resolver: 'resolver',
  expectedAnswer: 'expect',
  'rules.down.timeLimit': 'downGrace',
  'rules.latency.threshold': 'latencyMs',
  'rules.cert_expiry.threshold': 'certDays',
  contains: 'keyword',
};
/** The command's flags that have an input showing a message (the schema's issues name flags). */
const flagToForm: Record<string, keyof Values> = {
  status: 'status',
  lacks: 'keyword',
  headers: 'headers',
  expect: 'expect',
  interval: 'interval',
  timeout: 'timeout',
  downGrace: 'downGrace',
  latencyMs: 'latencyMs',
  certDays: 'certDays',
};
const formField = (field: string | undefined): keyof Values | undefined =>
  field ? (apiToForm[field] ?? flagToForm[field] ?? (field.startsWith('headers') ? 'headers' : undefined)) : undefined;

/** /checks/create: a drawer over the list. */
export function CreateCheckRoute() {
  const navigate = listRoute.useNavigate();
  const allowed = useLeaveUnlessAllowed('check.create', () => void navigate({ to: '/checks', search: (s) => s, replace: true, ignoreBlocker: true }));
  if (!allowed) return null;
  return (
    <CheckFormDrawer
      mode="create"
      initial={blank}
      onClose={(ignoreBlocker) => void navigate({ to: '/checks', search: (s) => s, ignoreBlocker })}
      onDone={(result) => {
        const created = result?.data as Check;
        toast('success', `Created check ${created.name}`);
        void navigate({ to: '/checks/show/$id', params: { id: created._id }, ignoreBlocker: true });
      }}
    />
  );
}

/** /checks/edit/$id: the same drawer, filled with the check; a failed load returns to the list. */
export function EditCheckRoute() {
  return (
    <EditDrawerRoute command="check.edit" query={checkQueryOptions} noun="check" list="/checks">
      {(check, close) => (
          <CheckFormDrawer
            mode="edit"
            initial={check ? fromCheck(check) : null}
            check={check?._id}
            onClose={close}
            onDone={(result, input) => {
              if (result) toast('success', `Updated check ${(input.name as string | undefined) ?? check!.name}`);
              close(true);
            }}
          />
      )}
    </EditDrawerRoute>
  );
}

interface CheckFormDrawerProps {
  mode: 'create' | 'edit';
  initial: Values | null;
  /** The check being edited. */
  check?: string;
  onClose: (ignoreBlocker?: boolean) => void;
  /** After the run (null: nothing changed, nothing ran); `input` is what was sent. */
  onDone: (result: CommandResult | null, input: Record<string, unknown>) => void;
}

function CheckFormDrawer({ mode, initial, check, onClose, onDone }: CheckFormDrawerProps) {
  const form = useCommandForm<'check.create' | 'check.edit', Values, keyof Values>(mode === 'create' ? 'check.create' : 'check.edit', {
    initial,
    toInput: toFlags,
    ...(mode === 'edit' ? { fixed: { check }, send: 'changed' as const } : {}),
    validate,
    field: formField,
    onDone: (result, input) => onDone(result, input as Record<string, unknown>),
  });
  const { values, errors, formError, busy } = form;
  const groups = useQuery(notificationGroupOptionsQueryOptions(''));
  useUnsavedChanges(form.dirty);

  const formId = `check-${mode}-form`;
  const set = <K extends keyof Values>(k: K) => (v: Values[K]) => form.set(k, v);
  const submit = form.submit;

  const dflt = useQuery({ ...defaultGroupQueryOptions(), enabled: mode === 'create' }).data?.result.group;
  const groupOptions = [
    ...(mode === 'create' ? [{ value: 'default', label: dflt ? `Default group (${dflt.name})` : 'Default group (none is set)' }] : []),
    { value: 'none', label: 'None' },
    ...(groups.data?.result.data ?? []).map((g) => ({ value: g._id, label: g.name })),
  ];
  const severityOptions = severities.map((s) => ({ value: s, label: s }));
  const v = values;
  return (
    <FormDrawer title={mode === 'create' ? 'Create Check' : 'Update Check'} formId={formId} mode={mode} busy={busy} loading={!v} onClose={onClose}>
      {v && (
        <form id={formId} onSubmit={submit} className="max-w-xl space-y-4" noValidate>
          <TextField label="Name" placeholder="e.g. Shop front" value={v.name} onChange={set('name')} isRequired errorMessage={errors.name} autoFocus />
          {mode === 'create' ? (
            <Select label="Kind" options={checkKinds.map((k) => ({ value: k, label: checkKindLabels[k] }))} value={v.kind} onChange={set('kind')} />
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">Kind: {checkKindLabels[v.kind]}</p>
          )}
          {v.kind === 'http' && (
            <>
              <TextField label="URL" placeholder="https://shop.example.com/health" value={v.url} onChange={set('url')} isRequired errorMessage={errors.url} />
              <div className="grid grid-cols-2 gap-3">
                <Select label="Method" options={httpMethods.map((m) => ({ value: m, label: m }))} value={v.method} onChange={set('method')} />
                <TextField label="Expected status codes" value={v.status} onChange={set('status')} errorMessage={errors.status} />
              </div>
              <div className="grid grid-cols-[12rem_1fr] gap-3">
                <Select
                  label="Keyword"
                  options={[
                    { value: 'contains', label: 'must appear' },
                    { value: 'lacks', label: 'must not appear' },
                  ]}
                  value={v.keywordMode}
                  onChange={set('keywordMode')}
                />
                <TextField label="Keyword text" placeholder="optional" value={v.keyword} onChange={set('keyword')} errorMessage={errors.keyword} />
              </div>
              <TextArea label="Headers" placeholder="Name: value (one per line)" rows={3} value={v.headers} onChange={set('headers')} errorMessage={errors.headers} />
              <Switch isSelected={v.followRedirects} onChange={set('followRedirects')}>
                Follow redirects
              </Switch>
            </>
          )}
          {v.kind !== 'http' && (
            <div className="grid grid-cols-[1fr_8rem] gap-3">
              <TextField label={v.kind === 'dns' ? 'Name to resolve' : 'Host'} value={v.host} onChange={set('host')} isRequired errorMessage={errors.host} />
              {v.kind !== 'dns' && <TextField label="Port" inputMode="numeric" value={v.port} onChange={set('port')} isRequired errorMessage={errors.port} />}
            </div>
          )}
          {v.kind === 'dns' && (
            <div className="grid grid-cols-3 gap-3">
              <Select label="Record type" options={dnsRecordTypes.map((r) => ({ value: r, label: r }))} value={v.record} onChange={set('record')} />
              <TextField label="Expected answer" placeholder="optional" value={v.expect} onChange={set('expect')} errorMessage={errors.expect} />
              <TextField label="Resolver" placeholder="system" value={v.resolver} onChange={set('resolver')} errorMessage={errors.resolver} />
            </div>
          )}
          {(v.kind === 'http' || v.kind === 'tls') && (
            <Switch isSelected={v.ignoreTls} onChange={set('ignoreTls')}>
              Ignore TLS errors (self-signed, wrong name); expiry is still watched
            </Switch>
          )}
          <div className="grid grid-cols-2 gap-3">
            <TextField label="Interval (seconds)" inputMode="numeric" value={v.interval} onChange={set('interval')} errorMessage={errors.interval} />
            <TextField label="Timeout (seconds)" inputMode="numeric" value={v.timeout} onChange={set('timeout')} errorMessage={errors.timeout} />
          </div>
          <fieldset className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold">Alert rules (Website Alert)</legend>
            <div className="grid grid-cols-2 gap-3">
              <TextField label="Down for (seconds) before alerting" inputMode="numeric" value={v.downGrace} onChange={set('downGrace')} errorMessage={errors.downGrace} />
              <Select label="Severity when down" options={severityOptions} value={v.downSeverity} onChange={set('downSeverity')} />
            </div>
            {/* Each switch on a line of its own: side by side, one label ran into the next. */}
            <div>
              <Switch isSelected={v.latencyOn} onChange={set('latencyOn')}>
                Alert on slow responses
              </Switch>
            </div>
            {v.latencyOn && (
              <div className="grid grid-cols-2 gap-3">
                <TextField label="Slower than (ms)" inputMode="numeric" value={v.latencyMs} onChange={set('latencyMs')} errorMessage={errors.latencyMs} />
                <Select label="Severity when slow" options={severityOptions} value={v.latencySeverity} onChange={set('latencySeverity')} />
              </div>
            )}
            {(v.kind === 'http' || v.kind === 'tls') && (
              <>
                <div>
                  <Switch isSelected={v.certOn} onChange={set('certOn')}>
                    Alert when the certificate expires soon
                  </Switch>
                </div>
                {v.certOn && (
                  <div className="grid grid-cols-2 gap-3">
                    <TextField label="Within (days)" inputMode="numeric" value={v.certDays} onChange={set('certDays')} errorMessage={errors.certDays} />
                    <Select label="Severity when expiring" options={severityOptions} value={v.certSeverity} onChange={set('certSeverity')} />
                  </div>
                )}
              </>
            )}
            <Select label="Notification Group" options={groupOptions} value={v.group} onChange={set('group')} />
          </fieldset>
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
