import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState, type ReactNode } from 'react';
import { roleLabels, roles, type Role } from '../../../server/contract/permissions';
import type { User } from '../../../server/contract/users';
import { userQueryOptions } from '../../api/users';
import { Button } from '../../components/ui/button';
import { Drawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { Icon } from '../../components/ui/icons';

const showRoute = getRouteApi('/app/users/show/$id');

type RowKey = 'email' | 'phonenumber' | 'role';
type EditKey = RowKey | 'username';
/** The command behind each inline edit: its check decides whether the row offers Edit. */
const commandOf = { username: 'user.rename', email: 'user.set-email', phonenumber: 'user.set-phone', role: 'user.set-role' } as const;
type FieldCommand = (typeof commandOf)[EditKey];
const keyOf = Object.fromEntries(Object.entries(commandOf).map(([key, id]) => [id, key])) as Record<FieldCommand, EditKey>;

/**
 * SPEC §2 Users: the 756 px detail drawer; a failed load closes it. `paging` is what the route
 * composes below the rows (issue 27 §2: the person's contact methods and notification rules).
 */
export function UserDrawerRoute({ paging }: { paging?: (user: User) => ReactNode } = {}) {
  const { id } = showRoute.useParams();
  const navigate = showRoute.useNavigate();
  const runner = useCommandRunner();
  const query = useQuery(userQueryOptions(id));
  const [editing, setEditing] = useState<EditKey | null>(null);
  const canEdit = (key: EditKey) => runner.check(commandOf[key]) === true;
  const user = query.data?.result;
  // One form for the four rows, edited one at a time: Save runs the command of the row open.
  const form = useCommandForm<FieldCommand, Record<EditKey, string>, never>('user.rename', {
    initial: user ? valuesOf(user) : null,
    toInput: (values, command) => ({ [keyOf[command]]: values[keyOf[command]] }),
    fixed: { user: user?._id },
    // The refusal shows beside the row being edited, in the gate's own words.
    field: () => undefined,
    onDone: async () => {
      setEditing(null);
      await query.refetch();
    },
  });
  const draft = editing && form.values ? form.values[editing] : '';
  const setDraft = (value: string) => {
    if (editing) form.set(editing, value);
  };
  const error = form.formError;
  useUnsavedChanges(editing !== null && draft !== valuesOf(user)[editing]);

  const close = () => void navigate({ to: '/users', search: (s) => s });
  useEffect(() => {
    if (query.isError) {
      toast('error', `Could not load the user: ${query.error.message}`);
      close();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);

  const start = (key: EditKey) => {
    setEditing(key);
    form.reset(valuesOf(user));
  };
  const save = () => (user && editing ? form.submit(undefined, { command: commandOf[editing] }) : Promise.resolve());

  const title = !user ? (
    <Skeleton className="h-6 w-40" />
  ) : editing === 'username' ? (
    <InlineForm className="flex items-center gap-2" canSave={!!draft.trim()} onSave={save} onCancel={() => setEditing(null)}>
      <TextField aria-label="User name" value={draft} onChange={setDraft} autoFocus errorMessage={error ?? undefined} />
    </InlineForm>
  ) : (
    <span className="flex items-center gap-2">
      {user.username}
      {canEdit('username') && (
        <Button size="sm" variant="ghost" aria-label="Edit User name" onPress={() => start('username')}>
          <Icon name="edit" />
        </Button>
      )}
    </span>
  );

  const row = (key: RowKey, label: string, view: ReactNode) => (
    <div className="border-b border-slate-100 py-3 dark:border-slate-800">
      <div className="mb-1 text-xs font-semibold text-slate-500 uppercase dark:text-slate-400">{label}</div>
      {editing === key ? (
        <InlineForm className="flex flex-wrap items-start gap-2" canSave={!!draft.trim()} onSave={save} onCancel={() => setEditing(null)} error={key === 'role' ? error : null}>
          {key === 'role' ? (
            <Select aria-label={label} className="w-48" options={roles.map((r) => ({ value: r, label: roleLabels[r] }))} value={draft as Role} onChange={setDraft} />
          ) : (
            <TextField aria-label={label} value={draft} onChange={setDraft} autoFocus className="w-72" errorMessage={error ?? undefined} />
          )}
        </InlineForm>
      ) : view ? (
        <div className="flex items-center justify-between gap-2">
          <span>{view}</span>
          {canEdit(key) && (
            <Button size="sm" variant="ghost" aria-label={`Edit ${label}`} onPress={() => start(key)} isDisabled={editing !== null}>
              Edit
            </Button>
          )}
        </div>
      ) : canEdit(key) ? (
        <Button size="sm" variant="ghost" onPress={() => start(key)} isDisabled={editing !== null}>
          Add {label}
        </Button>
      ) : (
        <span className="text-slate-500 dark:text-slate-400">—</span>
      )}
    </div>
  );

  return (
    <Drawer
      title={title}
      ariaLabel={user ? `User ${user.username}` : 'User'}
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={
        user && (
          <>
            <span className="text-xs text-slate-500 dark:text-slate-400">Created on {new Date(user.createdAt).toLocaleString()}</span>
            <CommandButton command="user.delete" input={{ user: user._id }} variant="danger">
              Delete User
            </CommandButton>
          </>
        )
      }
    >
      {!user ? (
        <div className="space-y-4">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
      ) : (
        <div>
          {row('email', 'Email', user.email)}
          {row('phonenumber', 'Phone', user.phonenumber ? <a href={`tel:${user.phonenumber}`} className="text-blue-600 hover:underline dark:text-blue-400">{user.phonenumber}</a> : null)}
          {row('role', 'Role', roleLabels[user.role])}
          {paging?.(user)}
        </div>
      )}
    </Drawer>
  );
}

/** One inline edit (SPEC §2: rows edited one at a time with Cancel and Save). */
function InlineForm({ className, canSave, onSave, onCancel, error, children }: { className: string; canSave: boolean; onSave: () => Promise<void>; onCancel: () => void; error?: string | null; children: ReactNode }) {
  return (
    <form
      className={className}
      onSubmit={(e) => {
        e.preventDefault();
        void onSave();
      }}
    >
      {children}
      <Button size="sm" onPress={onCancel}>
        Cancel
      </Button>
      <Button size="sm" type="submit" variant="primary" isDisabled={!canSave}>
        Save
      </Button>
      {error && <p className="w-full text-xs text-red-600 dark:text-red-400">{error}</p>}
    </form>
  );
}

/** The drawer's four values as the form holds them (an absent phone number is an empty field). */
function valuesOf(user: User | undefined): Record<EditKey, string> {
  return { username: user?.username ?? '', email: user?.email ?? '', phonenumber: user?.phonenumber ?? '', role: user?.role ?? '' };
}
