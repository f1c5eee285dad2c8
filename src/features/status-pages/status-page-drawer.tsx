import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import type { StatusGroupInput, StatusPage } from '../../../server/contract/status-pages';
import { checksListQueryOptions } from '../../api/checks';
import { serverChoicesQueryOptions } from '../../api/servers';
import { statusPageQueryOptions } from '../../api/status-pages';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { TextArea } from '../../components/ui/text-area';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { EditDrawerRoute } from '../../lib/edit-drawer-route';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/status-pages');

interface ItemValues {
  /** "server:<id>" or "check:<id>"; '' until chosen. */
  ref: string;
  displayName: string;
  showAddress: boolean;
}
interface GroupValues {
  name: string;
  items: ItemValues[];
}
interface Values {
  slug: string;
  title: string;
  description: string;
  groups: GroupValues[];
}

const blank: Values = { slug: '', title: '', description: '', groups: [{ name: '', items: [] }] };

function fromPage(p: StatusPage): Values {
  return {
    slug: p.slug,
    title: p.title,
    description: p.description,
    groups: p.groups.map((g) => ({ name: g.name, items: g.items.map((i) => ({ ref: `${i.kind}:${i.id}`, displayName: i.displayName, showAddress: i.showAddress })) })),
  };
}

const toGroups = (groups: GroupValues[]): StatusGroupInput[] =>
  groups.map((g) => ({
    name: g.name.trim(),
    items: g.items.map((i) => {
      const [kind, id] = i.ref.split(':') as ['server' | 'check', string];
      return { kind, id, displayName: i.displayName.trim(), showAddress: i.showAddress };
    }),
  }));

/** "groups.0.items.1.displayName" → the group and item it names, for the message beside that row. */
const itemPath = /^groups\.(\d+)\.items\.(\d+)\./;

/** The form as the command's input: every field, trimmed, the groups as the API takes them. */
const toInput = (v: Values) => ({ slug: v.slug.trim(), title: v.title.trim(), description: v.description, groups: toGroups(v.groups) });

/** The form's own checks, in its own words (an item row's messages sit beside that row). */
function validate(values: Values): Record<string, string> {
  const found: Record<string, string> = {};
  if (!values.slug.trim()) found.slug = 'slug is required';
  if (!values.title.trim()) found.title = 'title is required';
  values.groups.forEach((g, gi) =>
    g.items.forEach((it, ii) => {
      if (!it.ref) found[`${gi}.${ii}.ref`] = 'Choose a server or check';
      if (!it.displayName.trim()) found[`${gi}.${ii}.displayName`] = 'The name the public sees is required';
    }),
  );
  return found;
}

/** A field the API or the schema names, as the form's: the API names items by the same group and item positions as the form's rows. */
function formField(field: string): string | undefined {
  if (field === 'slug' || field === 'title' || field === 'description') return field;
  const m = itemPath.exec(field);
  return m ? `${m[1]}.${m[2]}.${field.endsWith('displayName') ? 'displayName' : 'ref'}` : undefined;
}

/** /status-pages/create: a drawer over the list. */
export function CreateStatusPageRoute() {
  const navigate = listRoute.useNavigate();
  const close = (ignoreBlocker = false) => void navigate({ to: '/status-pages', search: (s) => s, ignoreBlocker });
  const allowed = useLeaveUnlessAllowed('status.create', () => close(true));
  if (!allowed) return null;
  return (
    <StatusPageDrawer
      mode="create"
      initial={blank}
      onClose={close}
      onDone={(v) => {
        toast('success', `Created status page /status/${v.slug.trim()}`);
        close(true);
      }}
    />
  );
}

/** /status-pages/edit/$id: the same drawer, filled with the page; a failed load returns to the list. */
export function EditStatusPageRoute() {
  return (
    <EditDrawerRoute command="status.edit" query={statusPageQueryOptions} noun="status page" list="/status-pages">
      {(page, close) => (
          <StatusPageDrawer
            mode="edit"
            initial={page ? fromPage(page) : null}
            page={page?._id}
            onClose={close}
            onDone={(v) => {
              toast('success', `Updated status page /status/${v.slug.trim()}`);
              close(true);
            }}
          />
      )}
    </EditDrawerRoute>
  );
}

interface StatusPageDrawerProps {
  mode: 'create' | 'edit';
  initial: Values | null;
  /** The page being edited. */
  page?: string;
  onClose: (ignoreBlocker?: boolean) => void;
  onDone: (values: Values) => void;
}

function StatusPageDrawer({ mode, initial, page, onClose, onDone }: StatusPageDrawerProps) {
  // An edit sends the whole page: its groups are one list, replaced as a whole.
  const form = useCommandForm<'status.create' | 'status.edit', Values, string>(mode === 'create' ? 'status.create' : 'status.edit', {
    initial,
    toInput,
    ...(mode === 'edit' ? { fixed: { page } } : {}),
    validate,
    field: formField,
    message: (_field, text, issue) => issue?.message ?? text,
    onDone: (_result, _input, v) => onDone(v),
  });
  const { values, errors, formError, busy, update } = form;
  useUnsavedChanges(form.dirty);
  // Choices: up to 100 servers and 100 checks by name (what an admin picks from).
  const servers = useQuery(serverChoicesQueryOptions({ pageNumber: 1, pageSize: 100, sort: { by: 'hostname', direction: 'asc' } }));
  const checks = useQuery(checksListQueryOptions({ pageNumber: 1, pageSize: 100, sort: { by: 'name', direction: 'asc' } }));
  const options = [
    ...(servers.data?.result.data ?? []).map((s) => ({ value: `server:${s._id}`, label: `Server · ${s.hostname} (${s.ipaddress})` })),
    ...(checks.data?.result.data ?? []).map((c) => ({ value: `check:${c._id}`, label: `Check · ${c.name}` })),
  ];

  const formId = `status-page-${mode}-form`;
  const setGroup = (gi: number, patch: Partial<GroupValues>) => update((v) => ({ ...v, groups: v.groups.map((g, i) => (i === gi ? { ...g, ...patch } : g)) }));
  const setItem = (gi: number, ii: number, patch: Partial<ItemValues>) =>
    update((v) => ({ ...v, groups: v.groups.map((g, i) => (i === gi ? { ...g, items: g.items.map((it, j) => (j === ii ? { ...it, ...patch } : it)) } : g)) }));
  const submit = form.submit;

  const v = values;
  return (
    <FormDrawer title={mode === 'create' ? 'Create Status Page' : 'Update Status Page'} formId={formId} mode={mode} busy={busy} loading={!v} onClose={onClose}>
      {v && (
        <form id={formId} onSubmit={submit} className="max-w-2xl space-y-4" noValidate>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label="Title" placeholder="e.g. Acme status" value={v.title} onChange={(title) => update((x) => ({ ...x, title }))} isRequired errorMessage={errors.title} autoFocus />
            <TextField label="Slug" placeholder="e.g. public-api" value={v.slug} onChange={(slug) => update((x) => ({ ...x, slug }))} isRequired errorMessage={errors.slug} />
          </div>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Public address: <span className="font-mono">/status/{v.slug.trim() || '<slug>'}</span> — anyone can open it without signing in.
          </p>
          <TextArea label="Description" rows={2} value={v.description} onChange={(description) => update((x) => ({ ...x, description }))} errorMessage={errors.description} />
          <div className="space-y-4">
            <h3 className="text-sm font-semibold">Groups</h3>
            {v.groups.map((g, gi) => (
              <fieldset key={gi} className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" aria-label={`Group ${gi + 1}`}>
                <div className="flex items-end gap-2">
                  <TextField label="Group name" placeholder="e.g. Core services (optional)" value={g.name} onChange={(name) => setGroup(gi, { name })} className="flex-1" />
                  <Button variant="danger-ghost" size="sm" onPress={() => update((x) => ({ ...x, groups: x.groups.filter((_, i) => i !== gi) }))} aria-label={`Remove group ${gi + 1}`}>
                    Remove group
                  </Button>
                </div>
                {g.items.map((it, ii) => (
                  <div key={ii} className="grid items-end gap-2 sm:grid-cols-[1fr_1fr_auto_auto]" data-testid="status-item-row">
                    <Select aria-label={`Item ${ii + 1} of group ${gi + 1}`} label="Server or check" placeholder="Choose…" options={options} value={it.ref || null} onChange={(ref) => setItem(gi, ii, { ref })} errorMessage={errors[`${gi}.${ii}.ref`]} />
                    <TextField label="Display name" placeholder="What the public sees" value={it.displayName} onChange={(displayName) => setItem(gi, ii, { displayName })} errorMessage={errors[`${gi}.${ii}.displayName`]} />
                    <Checkbox isSelected={it.showAddress} onChange={(showAddress) => setItem(gi, ii, { showAddress })} className="pb-2">
                      Show address
                    </Checkbox>
                    <Button variant="ghost" size="sm" onPress={() => setGroup(gi, { items: g.items.filter((_, j) => j !== ii) })} aria-label={`Remove item ${ii + 1} of group ${gi + 1}`}>
                      Remove
                    </Button>
                  </div>
                ))}
                <Button size="sm" onPress={() => setGroup(gi, { items: [...g.items, { ref: '', displayName: '', showAddress: false }] })}>
                  Add item
                </Button>
              </fieldset>
            ))}
            <Button size="sm" onPress={() => update((x) => ({ ...x, groups: [...x.groups, { name: '', items: [] }] }))}>
              Add group
            </Button>
          </div>
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
