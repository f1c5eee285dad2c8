import { getRouteApi } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { CommandInput } from '../../../commands';
import { GroupFieldError, type GroupField } from '../../../commands/group/group-fields';
import { notificationGroupNameMessage, slackChannelMessage, type NotificationGroup } from '../../../server/contract/alerts';
import { notificationGroupQueryOptions } from '../../api/notification-groups';
import { Button } from '../../components/ui/button';
import { FormDrawer } from '../../components/ui/drawer';
import { Switch } from '../../components/ui/switch';
import { TagInput } from '../../components/ui/tag-input';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { addEmails, removeEmail } from '../../lib/email-list';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useEditRecord } from '../../lib/use-edit-record';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/notification-groups');
const editRoute = getRouteApi('/app/notification-groups/edit/$id');

export interface GroupValues {
  name: string;
  description: string;
  emailEnabled: boolean;
  emails: string[];
  slackEnabled: boolean;
  slackChannel: string;
}
type Errors = Partial<Record<GroupField, string>>;

/** SPEC §5: email on and Slack off by default. */
const blank: GroupValues = { name: '', description: '', emailEnabled: true, emails: [], slackEnabled: false, slackChannel: '' };
const fromGroup = (g: NotificationGroup): GroupValues => ({
  name: g.name,
  description: g.description,
  emailEnabled: g.emailEnabled,
  emails: [...g.emailList],
  slackEnabled: g.slackEnabled,
  slackChannel: g.slackChannel ?? '',
});
const sameValues = (a: GroupValues, b: GroupValues) =>
  a.name === b.name &&
  a.description === b.description &&
  a.emailEnabled === b.emailEnabled &&
  a.slackEnabled === b.slackEnabled &&
  a.slackChannel === b.slackChannel &&
  a.emails.length === b.emails.length &&
  a.emails.every((e, i) => e === b.emails[i]);

/** /notification-groups/create: a 756 px drawer over the list (SPEC §2). */
export function CreateGroupRoute() {
  const navigate = listRoute.useNavigate();
  const runner = useCommandRunner();
  const close = (ignoreBlocker = false) => void navigate({ to: '/notification-groups', search: (s) => s, ignoreBlocker });
  const allowed = useLeaveUnlessAllowed('group.create', () => close(true));
  if (!allowed) return null;
  return (
    <GroupFormDrawer
      mode="create"
      initial={blank}
      onClose={close}
      onSubmit={async (v) => {
        // The drawer shows a failure beside its fields: the run reports nothing itself.
        await runner.runOrThrow('group.create', {
          name: v.name,
          description: v.description,
          emails: v.emails,
          emailEnabled: v.emailEnabled,
          slackEnabled: v.slackEnabled,
          slackChannel: v.slackChannel || undefined,
        });
        toast('success', `Created notification group ${v.name.trim()}`);
        close(true);
      }}
    />
  );
}

/** /notification-groups/edit/$id: the same drawer, filled; a failed load returns to the list (SPEC §4, §8). */
export function EditGroupRoute() {
  const { id } = editRoute.useParams();
  const navigate = listRoute.useNavigate();
  const runner = useCommandRunner();
  const close = (ignoreBlocker = false) => void navigate({ to: '/notification-groups', search: (s) => s, ignoreBlocker });
  const { allowed, data } = useEditRecord('group.edit', notificationGroupQueryOptions(id), 'notification group', close);
  const group = data?.result;
  if (!allowed) return null;
  return (
    <GroupFormDrawer
      key={id}
      mode="edit"
      initial={group ? fromGroup(group) : null}
      onClose={close}
      onSubmit={async (v) => {
        if (!group) return;
        const before = fromGroup(group);
        // Only what changed: `group.edit` with no field would open this drawer again.
        const changes: Omit<CommandInput<'group.edit'>, 'group'> = {};
        if (v.name.trim() !== before.name) changes.name = v.name;
        if (v.description.trim() !== before.description) changes.description = v.description;
        if (v.emailEnabled !== before.emailEnabled) changes.emailEnabled = v.emailEnabled;
        if (v.emails.join('\n') !== before.emails.join('\n')) changes.emails = v.emails;
        if (v.slackEnabled !== before.slackEnabled) changes.slackEnabled = v.slackEnabled;
        if (v.slackChannel.trim() !== before.slackChannel) changes.slackChannel = v.slackChannel;
        if (Object.keys(changes).length) {
          await runner.runOrThrow('group.edit', { group: group._id, ...changes });
          toast('success', `Updated notification group ${v.name.trim()}`);
        }
        close(true);
      }}
    />
  );
}

interface GroupFormDrawerProps {
  mode: 'create' | 'edit';
  /** null while the group loads. */
  initial: GroupValues | null;
  onClose: (ignoreBlocker?: boolean) => void;
  /** Runs the command; throws what the command throws. */
  onSubmit: (values: GroupValues) => Promise<void>;
}

function GroupFormDrawer({ mode, initial, onClose, onSubmit }: GroupFormDrawerProps) {
  const [values, setValues] = useState<GroupValues | null>(initial);
  // The record arrives after the drawer opened: fill the form then, in the same drawer (a new
  // drawer per load closed and reopened it, which a person sees as a flicker).
  if (values === null && initial !== null) setValues(initial);
  const [emailInput, setEmailInput] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // Text typed into the email input but not yet added counts as a change too.
  const dirty = !done && !!values && !!initial && (!sameValues(values, initial) || emailInput.trim() !== '');
  useUnsavedChanges(dirty);

  const set = <K extends keyof GroupValues>(k: K, v: GroupValues[K]) => {
    setValues((prev) => (prev ? { ...prev, [k]: v } : prev));
    const field = k === 'slackEnabled' ? 'slackChannel' : k;
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  /** SPEC §4: Enter or the Enter button adds the typed address; the input then clears. */
  const addTyped = () => {
    if (!values) return;
    const out = addEmails(values.emails, emailInput);
    setValues({ ...values, emails: out.list });
    setEmailInput(out.input);
    setErrors((prev) => ({ ...prev, emails: out.error }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!values || busy) return;
    const found: Errors = {};
    if (!values.name.trim()) found.name = notificationGroupNameMessage;
    if (values.slackEnabled && !values.slackChannel.trim()) found.slackChannel = slackChannelMessage;
    // An address typed but not yet added is meant to be on the list: add it rather than drop it.
    let emails = values.emails;
    if (emailInput.trim()) {
      const out = addEmails(values.emails, emailInput);
      emails = out.list;
      setValues({ ...values, emails });
      setEmailInput(out.input);
      if (out.error) found.emails = out.error;
    }
    setErrors(found);
    setFormError(null);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      await onSubmit({ ...values, emails });
      setDone(true);
    } catch (err) {
      if (err instanceof GroupFieldError && err.field) setErrors({ [err.field]: err.message });
      else if (!(err instanceof Error && err.message === 'Cancelled')) setFormError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  const formId = `group-${mode}-form`;
  const title = mode === 'create' ? 'Create Notification Group' : 'Update Notification Group';
  return (
    <FormDrawer title={title} formId={formId} mode={mode} busy={busy} loading={!values} onClose={onClose}>
      {values && (
        <form id={formId} onSubmit={submit} className="max-w-lg space-y-5" noValidate>
          <TextField
            label="Name"
            placeholder="e.g. On-call team"
            value={values.name}
            onChange={(v) => set('name', v)}
            isRequired
            errorMessage={errors.name}
            autoFocus
          />
          <TextField label="Description" placeholder="Who is in it and when they are notified" value={values.description} onChange={(v) => set('description', v)} errorMessage={errors.description} />
          <fieldset className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold">Email</legend>
            <Switch isSelected={values.emailEnabled} onChange={(v) => set('emailEnabled', v)}>
              Email Enabled
            </Switch>
            <TagInput
              label="Email List"
              placeholder="name@example.com"
              tags={values.emails}
              inputValue={emailInput}
              onInputChange={(v) => {
                setEmailInput(v);
                setErrors((prev) => ({ ...prev, emails: undefined }));
              }}
              onAdd={addTyped}
              onRemove={(tag) => set('emails', removeEmail(values.emails, tag))}
              errorMessage={errors.emails}
              description="Press Enter to add an address; several may be pasted at once, separated by commas."
            />
          </fieldset>
          <fieldset className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700">
            <legend className="px-1 text-sm font-semibold">Slack</legend>
            <Switch isSelected={values.slackEnabled} onChange={(v) => set('slackEnabled', v)}>
              Slack Enabled
            </Switch>
            <TextField
              label="Slack Channel"
              placeholder="#ops-alerts"
              value={values.slackChannel}
              onChange={(v) => set('slackChannel', v)}
              // SPEC §5: required only when Slack is enabled.
              isRequired={values.slackEnabled}
              errorMessage={errors.slackChannel}
            />
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
