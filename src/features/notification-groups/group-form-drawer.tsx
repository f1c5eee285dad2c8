import { getRouteApi } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import type { CommandResult } from '../../../commands/define-command';
import type { GroupField } from '../../../commands/group/group-fields';
import { slackChannelMessage, type NotificationGroup } from '../../../server/contract/alerts';
import { notificationGroupQueryOptions } from '../../api/notification-groups';
import { Button } from '../../components/ui/button';
import { FormDrawer } from '../../components/ui/drawer';
import { Switch } from '../../components/ui/switch';
import { TagInput } from '../../components/ui/tag-input';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { addEmails, removeEmail } from '../../lib/email-list';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { EditDrawerRoute } from '../../lib/edit-drawer-route';
import { useLeaveUnlessAllowed } from '../../lib/use-leave-unless-allowed';
import { useUnsavedChanges } from '../../lib/use-unsaved-changes';

const listRoute = getRouteApi('/app/notification-groups');

export interface GroupValues {
  name: string;
  description: string;
  emailEnabled: boolean;
  emails: string[];
  slackEnabled: boolean;
  slackChannel: string;
}

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
/** The form as the command's input; `slackChannel` left out of a create when empty, as the command's default. */
const toInput = (mode: 'create' | 'edit') => (v: GroupValues) => ({
  name: v.name,
  description: v.description,
  emails: v.emails,
  emailEnabled: v.emailEnabled,
  slackEnabled: v.slackEnabled,
  slackChannel: mode === 'create' ? v.slackChannel || undefined : v.slackChannel,
});

/** /notification-groups/create: a 756 px drawer over the list (SPEC §2). */
export function CreateGroupRoute() {
  const navigate = listRoute.useNavigate();
  const close = (ignoreBlocker = false) => void navigate({ to: '/notification-groups', search: (s) => s, ignoreBlocker });
  const allowed = useLeaveUnlessAllowed('group.create', () => close(true));
  if (!allowed) return null;
  return (
    <GroupFormDrawer
      mode="create"
      initial={blank}
      onClose={close}
      onDone={(_result, v) => {
        toast('success', `Created notification group ${v.name.trim()}`);
        close(true);
      }}
    />
  );
}

/** /notification-groups/edit/$id: the same drawer, filled; a failed load returns to the list (SPEC §4, §8). */
export function EditGroupRoute() {
  return (
    <EditDrawerRoute command="group.edit" query={notificationGroupQueryOptions} noun="notification group" list="/notification-groups">
      {(group, close) => (
          <GroupFormDrawer
            mode="edit"
            initial={group ? fromGroup(group) : null}
            group={group?._id}
            onClose={close}
            onDone={(result, v) => {
              if (result) toast('success', `Updated notification group ${v.name.trim()}`);
              close(true);
            }}
          />
      )}
    </EditDrawerRoute>
  );
}

interface GroupFormDrawerProps {
  mode: 'create' | 'edit';
  /** null while the group loads. */
  initial: GroupValues | null;
  /** The group being edited. */
  group?: string;
  onClose: (ignoreBlocker?: boolean) => void;
  /** After the run (null: nothing changed, nothing ran). */
  onDone: (result: CommandResult | null, values: GroupValues) => void;
}

function GroupFormDrawer({ mode, initial, group, onClose, onDone }: GroupFormDrawerProps) {
  // The drawer shows a failure beside its fields; an edit sends only what changed (`group.edit`
  // with no field would open this drawer again).
  const form = useCommandForm<'group.create' | 'group.edit', GroupValues, GroupField>(mode === 'create' ? 'group.create' : 'group.edit', {
    initial,
    toInput: toInput(mode),
    ...(mode === 'edit' ? { fixed: { group }, send: 'changed' as const } : {}),
    validate: (v) => (v.slackEnabled && !v.slackChannel.trim() ? { slackChannel: slackChannelMessage } : {}),
    message: (_field, text, issue) => issue?.message ?? text,
    onDone: (result, _input, v) => onDone(result, v),
  });
  const { values, errors, formError, busy } = form;
  const [emailInput, setEmailInput] = useState('');
  // Text typed into the email input but not yet added counts as a change too.
  useUnsavedChanges(!form.done && !!values && !!initial && (form.dirty || emailInput.trim() !== ''));

  const set = <K extends keyof GroupValues>(k: K, v: GroupValues[K]) => {
    form.set(k, v);
    if (k === 'slackEnabled') form.setErrors((prev) => ({ ...prev, slackChannel: undefined }));
  };

  /** SPEC §4: Enter or the Enter button adds the typed address; the input then clears. */
  const addTyped = () => {
    if (!values) return;
    const out = addEmails(values.emails, emailInput);
    form.update((v) => ({ ...v, emails: out.list }));
    setEmailInput(out.input);
    form.setErrors((prev) => ({ ...prev, emails: out.error }));
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!values || busy) return;
    // An address typed but not yet added is meant to be on the list: add it rather than drop it.
    if (!emailInput.trim()) return void form.submit();
    const out = addEmails(values.emails, emailInput);
    const next = { ...values, emails: out.list };
    form.update(() => next);
    setEmailInput(out.input);
    void form.submit(undefined, { values: next, errors: out.error ? { emails: out.error } : {} });
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
                form.setErrors((prev) => ({ ...prev, emails: undefined }));
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
