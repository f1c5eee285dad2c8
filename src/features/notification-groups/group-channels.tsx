import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { channelTypeLabels, channelTypes, type ChannelType } from '../../../server/contract/channels';
import { groupChannelsQueryOptions } from '../../api/notification-groups';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { CommandButton } from '../../app/command-host/command-button';
import { MarkdownView } from '../../lib/markdown';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { EditChannelForm, FIELDS, type Field } from './channel-form';

interface AddValues {
  type: ChannelType;
  name: string;
  fields: Partial<Record<Field, string>>;
}
const blankChannel: AddValues = { type: 'webhook', name: '', fields: {} };

/**
 * Issue 15 §4: a group's channel targets on its drawer — listed with their masked address, each
 * with Test, Edit (in place) and Remove, an Add form per type, and the last test's answers. Every
 * action is a command (group.add-channel, group.edit-channel, group.remove-channel, group.test).
 */
export function GroupChannels({ groupId, groupName }: { groupId: string; groupName: string }) {
  const runner = useCommandRunner();
  const query = useQuery(groupChannelsQueryOptions(groupId));
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const canChange = runner.check('group.edit-channel');
  const [report, setReport] = useState<{ ok: boolean; text: string } | null>(null);
  const canEdit = runner.check('group.add-channel') === true;

  const form = useCommandForm<'group.add-channel', AddValues, never>('group.add-channel', {
    initial: blankChannel,
    // Only the fields the chosen type asks for, and only those filled in.
    toInput: ({ type, name, fields }) => ({ type, name, ...Object.fromEntries(Object.entries(fields).filter(([k, v]) => v?.trim() && FIELDS[type].some((f) => f.name === k))) }),
    fixed: { group: groupId },
    // The command words its refusals: said above the buttons.
    field: () => undefined,
    onDone: (_result, _input, v) => {
      toast('success', `Added channel ${v.name.trim()}`);
      setAdding(false);
      form.reset(blankChannel);
    },
  });
  const { type, name, fields: values } = form.values!;
  const { formError, busy, submit } = form;

  // One test run at a time: the whole group's (`*`) or one target's, which says "Sending…".
  const [pressed, setPressed] = useState<string>('*');
  const tester = useCommandForm<'group.test', { channel?: string }, never>('group.test', {
    initial: {},
    toInput: ({ channel }) => (channel ? { channel } : {}),
    fixed: { group: groupId },
    // The answers, or the refusal, go in the test results below the list.
    field: () => undefined,
    onDone: (result) => setReport({ ok: true, text: result?.message ?? 'Sent.' }),
    onFailure: (text) => setReport({ ok: false, text }),
  });
  const testing = tester.busy ? pressed : null;
  const test = (channel?: string) => {
    setPressed(channel ?? '*');
    setReport(null);
    return tester.submit(undefined, { values: { channel } });
  };

  const channels = query.data?.result;
  return (
    <section aria-label="Channels" className="mt-6 space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Channels</h3>
        <div className="flex gap-2">
          <Button size="sm" onPress={() => void test()} isDisabled={testing !== null} disabledReason={runner.check('group.test') === true ? false : (runner.check('group.test') as string)}>
            {testing === '*' ? 'Sending…' : 'Send test notification'}
          </Button>
          {!adding && (
            <Button size="sm" variant="primary" onPress={() => setAdding(true)} disabledReason={canEdit ? false : (runner.check('group.add-channel') as string)}>
              Add channel
            </Button>
          )}
        </div>
      </div>
      {query.isError ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          Could not load the channels: {query.error.message}
        </p>
      ) : !channels ? (
        <Skeleton className="h-8" />
      ) : !channels.length ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No channels besides email and Slack. Add a webhook, Microsoft Teams, PagerDuty, Telegram or ntfy.</p>
      ) : (
        <ul aria-label="Channel targets" className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {channels.map((c) => (
            <li key={c._id} aria-label={c.name} className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
              <span className="w-32 shrink-0 font-medium text-slate-600 dark:text-slate-400">{channelTypeLabels[c.type]}</span>
              <span className="min-w-0 flex-1 break-words">{c.target}</span>
              <Button size="sm" onPress={() => void test(c._id)} isDisabled={testing !== null} aria-label={`Test ${c.name}`}>
                {testing === c._id ? 'Sending…' : 'Test'}
              </Button>
              <Button size="sm" onPress={() => setEditing(editing === c._id ? null : c._id)} aria-label={`Edit ${c.name}`} aria-expanded={editing === c._id} disabledReason={canChange === true ? false : canChange}>
                Edit
              </Button>
              <CommandButton size="sm" variant="danger" command="group.remove-channel" input={{ group: groupId, channel: c._id }} aria-label={`Remove ${c.name}`} onDone={() => toast('success', `Removed channel ${c.name}`)}>
                Remove
              </CommandButton>
              {editing === c._id && <EditChannelForm key={c._id} groupId={groupId} channel={c} onClose={() => setEditing(null)} />}
            </li>
          ))}
        </ul>
      )}
      {report && (
        <div role="status" aria-label="Test results" className={`rounded-md border p-3 text-sm ${report.ok ? 'border-green-200 bg-green-50 dark:border-green-900 dark:bg-green-950' : 'border-red-200 bg-red-50 dark:border-red-900 dark:bg-red-950'}`}>
          <MarkdownView>{report.text}</MarkdownView>
        </div>
      )}
      {adding && (
        <form aria-label={`Add channel to ${groupName}`} onSubmit={submit} className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" noValidate>
          <Select label="Channel type" options={channelTypes.map((t) => ({ value: t, label: channelTypeLabels[t] }))} value={type} onChange={(t) => form.set('type', t)} />
          <TextField label="Channel name" placeholder="e.g. on-call pager" value={name} onChange={(v) => form.set('name', v)} isRequired />
          {FIELDS[type].map((f) => (
            <TextField
              key={`${type}-${f.name}`}
              label={f.label}
              type={f.secret ? 'password' : 'text'}
              placeholder={f.placeholder}
              value={values[f.name] ?? ''}
              onChange={(v) => form.update((prev) => ({ ...prev, fields: { ...prev.fields, [f.name]: v } }))}
              isRequired={!f.optional}
              autoComplete="off"
            />
          ))}
          {formError && (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {formError}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button size="sm" onPress={() => setAdding(false)}>
              Cancel
            </Button>
            <Button size="sm" variant="primary" type="submit" isDisabled={busy}>
              {busy ? 'Adding…' : 'Add'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
