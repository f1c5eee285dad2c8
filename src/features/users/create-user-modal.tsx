import { getRouteApi } from '@tanstack/react-router';
import { roleLabels, roles, type Role } from '../../../server/contract/permissions';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const usersRoute = getRouteApi('/app/users');
const fields = ['username', 'email', 'phonenumber', 'password'] as const;
type Field = (typeof fields)[number];
type Values = Record<Field, string> & { role: Role | null };
const blank: Values = { username: '', email: '', phonenumber: '', password: '', role: null };

/** SPEC §2/§5: modal 'Add new User'; all five fields required; no message texts are specified. */
export function CreateUserRoute() {
  const navigate = usersRoute.useNavigate();
  const close = (ignoreBlocker = false) => void navigate({ to: '/users', search: (s) => s, ignoreBlocker });
  // The form shows the failure itself (beside its fields), so the run reports nothing.
  const form = useCommandForm<'user.create', Values, Field | 'role'>('user.create', {
    initial: blank,
    toInput: (v) => ({ ...v, role: v.role ?? undefined }),
    validate: (v) => {
      const missing: Partial<Record<Field | 'role', string>> = {};
      for (const k of fields) if (!v[k].trim()) missing[k] = 'Required';
      if (!v.role) missing.role = 'Required';
      return missing;
    },
    onDone: () => close(true),
  });
  const values = form.values!;
  const { errors, formError, busy } = form;
  useUnsavedChanges(form.dirty);
  const set = (k: Field) => (v: string) => form.update((prev) => ({ ...prev, [k]: v }));
  const submit = form.submit;

  return (
    <Modal
      title="Add new User"
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={
        <>
          <Button onPress={() => close()}>Cancel</Button>
          <Button type="submit" form="create-user-form" variant="primary" isDisabled={busy}>
            {busy ? 'Creating…' : 'Create'}
          </Button>
        </>
      }
    >
      <form id="create-user-form" onSubmit={submit} className="space-y-3" noValidate>
        <TextField label="User name" placeholder="Please enter User name" value={values.username} onChange={set('username')} isRequired errorMessage={errors.username} autoFocus />
        <TextField label="Email" placeholder="Please enter User Email" value={values.email} onChange={set('email')} isRequired errorMessage={errors.email} />
        <TextField label="Phone number" placeholder="Please enter Phonenumber" value={values.phonenumber} onChange={set('phonenumber')} isRequired errorMessage={errors.phonenumber} />
        <TextField label="Password" type="password" placeholder="Please enter Password" value={values.password} onChange={set('password')} isRequired errorMessage={errors.password} />
        <Select
          label="Role"
          placeholder="Please slect Role"
          options={roles.map((r) => ({ value: r, label: roleLabels[r] }))}
          value={values.role}
          onChange={(role) => form.update((prev) => ({ ...prev, role }))}
          isRequired
          errorMessage={errors.role}
        />
        {formError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {formError}
          </p>
        )}
      </form>
    </Modal>
  );
}
