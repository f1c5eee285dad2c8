import { getRouteApi } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { roleLabels, roles, type Role } from '../../../server/contract/permissions';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const usersRoute = getRouteApi('/app/users');
const empty = { username: '', email: '', phonenumber: '', password: '' };
type Field = keyof typeof empty;

/** SPEC §2/§5: modal 'Add new User'; all five fields required; no message texts are specified. */
export function CreateUserRoute() {
  const navigate = usersRoute.useNavigate();
  const runner = useCommandRunner();
  const [values, setValues] = useState(empty);
  const [role, setRole] = useState<Role | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field | 'role', string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const dirty = !done && (Object.values(values).some(Boolean) || role !== null);
  useUnsavedChanges(dirty);

  const close = (ignoreBlocker = false) => void navigate({ to: '/users', search: (s) => s, ignoreBlocker });
  const set = (k: Field) => (v: string) => setValues((prev) => ({ ...prev, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing: typeof errors = {};
    for (const k of Object.keys(empty) as Field[]) if (!values[k].trim()) missing[k] = 'Required';
    if (!role) missing.role = 'Required';
    setErrors(missing);
    if (!role || Object.keys(missing).length) return;
    setBusy(true);
    setFormError(null);
    try {
      // The form shows the failure itself (beside its fields), so the run reports nothing.
      await runner.runOrThrow('user.create', { ...values, role });
      setDone(true);
      close(true);
    } catch (err) {
      setFormError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

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
          value={role}
          onChange={setRole}
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
