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
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';
import { Icon } from '../../components/ui/icons';

const showRoute = getRouteApi('/app/users/show/$id');

type RowKey = 'email' | 'phonenumber' | 'role';
/** The command behind each inline edit: its check decides whether the row offers Edit. */
const commandOf = { username: 'user.rename', email: 'user.set-email', phonenumber: 'user.set-phone', role: 'user.set-role' } as const;

/** SPEC §2 Users: the 756 px detail drawer; a failed load closes it. */
export function UserDrawerRoute() {
  const { id } = showRoute.useParams();
  const navigate = showRoute.useNavigate();
  const runner = useCommandRunner();
  const query = useQuery(userQueryOptions(id));
  const [editing, setEditing] = useState<RowKey | 'username' | null>(null);
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const canEdit = (key: RowKey | 'username') => runner.check(commandOf[key]) === true;
  useUnsavedChanges(editing !== null && draft !== currentValue(query.data?.result, editing));

  const close = () => void navigate({ to: '/users', search: (s) => s });
  useEffect(() => {
    if (query.isError) {
      toast('error', `Could not load the user: ${query.error.message}`);
      close();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);

  const user = query.data?.result;
  const start = (key: RowKey | 'username') => {
    setEditing(key);
    setDraft(currentValue(user, key));
    setError(null);
  };
  const save = async () => {
    if (!user || !editing) return;
    const target = user._id;
    const save = {
      username: () => runner.runOrThrow('user.rename', { user: target, username: draft }),
      email: () => runner.runOrThrow('user.set-email', { user: target, email: draft }),
      phonenumber: () => runner.runOrThrow('user.set-phone', { user: target, phonenumber: draft }),
      role: () => runner.runOrThrow('user.set-role', { user: target, role: draft as Role }),
    }[editing];
    try {
      // The error shows beside the field being edited, so this run reports nothing itself.
      await save();
      setEditing(null);
      await query.refetch();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };

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

function currentValue(user: User | undefined, key: RowKey | 'username' | null): string {
  if (!user || !key) return '';
  return user[key] ?? '';
}
