import { useState, type FormEvent } from 'react';
import { channelTypeLabels, type ChannelType, type NotificationChannel } from '../../../server/contract/channels';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';

/** The fields each type asks for, in the order the forms show them (the commands' argument names). */
export type Field = 'webhook' | 'signingSecret' | 'headers' | 'routingKey' | 'botToken' | 'chatId' | 'topic' | 'token' | 'endpoint';
export interface FieldSpec {
  name: Field;
  label: string;
  secret?: boolean;
  optional?: boolean;
  placeholder?: string;
  /** Where the stored value sits (`settings.chatId`), for the edit form: settings are shown, secrets masked. */
  stored: string;
}
export const FIELDS: Record<ChannelType, FieldSpec[]> = {
  webhook: [
    { name: 'webhook', label: 'Webhook URL', secret: true, placeholder: 'https://receiver.example.com/alerts', stored: 'secrets.url' },
    { name: 'signingSecret', label: 'Signing secret (HMAC-SHA256, optional)', secret: true, optional: true, stored: 'secrets.signingSecret' },
    { name: 'headers', label: 'Custom headers (optional)', secret: true, optional: true, placeholder: 'X-Api-Key: …; X-Team: ops', stored: 'secrets.headers' },
  ],
  teams: [{ name: 'webhook', label: 'Workflows webhook URL', secret: true, placeholder: 'https://….logic.azure.com/workflows/…', stored: 'secrets.url' }],
  pagerduty: [
    { name: 'routingKey', label: 'Routing key (Events API v2 integration key)', secret: true, stored: 'secrets.routingKey' },
    { name: 'endpoint', label: 'Events API URL (optional, e.g. the EU region)', optional: true, placeholder: 'https://events.pagerduty.com/v2/enqueue', stored: 'settings.eventsUrl' },
  ],
  telegram: [
    { name: 'botToken', label: 'Bot token', secret: true, placeholder: '123456:ABC-DEF…', stored: 'secrets.botToken' },
    { name: 'chatId', label: 'Chat id', placeholder: '-1001234567890 or @channel', stored: 'settings.chatId' },
    { name: 'endpoint', label: 'Bot API server (optional, a self-hosted one)', optional: true, placeholder: 'https://api.telegram.org', stored: 'settings.apiUrl' },
  ],
  ntfy: [
    { name: 'topic', label: 'Topic', secret: true, stored: 'secrets.topic' },
    { name: 'token', label: 'Access token (optional)', secret: true, optional: true, stored: 'secrets.token' },
    { name: 'endpoint', label: 'Server URL (optional)', optional: true, placeholder: 'https://ntfy.sh', stored: 'settings.serverUrl' },
  ],
};

/** A stored value as the API shows it: a setting as it is, a secret masked (headers by name only). */
function storedValue(c: NotificationChannel, place: string): string {
  const [part, key] = place.split('.') as ['settings' | 'secrets', string];
  const v = c[part][key];
  if (v === undefined) return '';
  if (typeof v === 'object') return Object.keys(v).map((h) => `${h}: ••••`).join('; ');
  return String(v);
}

/**
 * Issue 15: a channel target edited in place on the group drawer, through group.edit-channel.
 * Secrets are never sent to the browser, so their fields start empty with the masked value as a
 * hint; one left empty is kept. A setting emptied that was set is removed (`--clear`).
 */
export function EditChannelForm({ groupId, channel, onClose }: { groupId: string; channel: NotificationChannel; onClose: () => void }) {
  const runner = useCommandRunner();
  const fields = FIELDS[channel.type];
  const [name, setName] = useState(channel.name);
  const [values, setValues] = useState<Partial<Record<Field, string>>>(() => Object.fromEntries(fields.filter((f) => !f.secret).map((f) => [f.name, storedValue(channel, f.stored)])));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const given: Partial<Record<Field, string>> = {};
    const clear: Field[] = [];
    for (const f of fields) {
      const v = values[f.name]?.trim() ?? '';
      if (f.secret) {
        if (v) given[f.name] = v;
      } else if (v !== storedValue(channel, f.stored)) {
        if (v) given[f.name] = v;
        else if (f.optional) clear.push(f.name);
      }
    }
    try {
      await runner.runOrThrow('group.edit-channel', {
        group: groupId,
        channel: channel._id,
        ...(name.trim() !== channel.name ? { name: name.trim() } : {}),
        ...given,
        ...(clear.length ? { clear: clear.join(',') } : {}),
      });
      toast('success', `Updated channel ${name.trim()}`);
      onClose();
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form aria-label={`Edit channel ${channel.name}`} onSubmit={submit} className="w-full space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" noValidate>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {channelTypeLabels[channel.type]} channel. Secrets are not shown: leave a secret field empty to keep it.
      </p>
      <TextField label="Channel name" value={name} onChange={setName} isRequired />
      {fields.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          type={f.secret ? 'password' : 'text'}
          placeholder={f.secret ? `${storedValue(channel, f.stored) || 'not set'} (kept if left empty)` : f.placeholder}
          value={values[f.name] ?? ''}
          onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
          autoComplete="off"
        />
      ))}
      {error && (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button size="sm" onPress={onClose}>
          Cancel
        </Button>
        <Button size="sm" variant="primary" type="submit" isDisabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
