import { channelTypeLabels, type ChannelType, type NotificationChannel } from '../../../server/contract/channels';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';

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

type Values = Partial<Record<Field, string>> & { name: string };

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
  const fields = FIELDS[channel.type];
  const form = useCommandForm<'group.edit-channel', Values, never>('group.edit-channel', {
    initial: { name: channel.name, ...Object.fromEntries(fields.filter((f) => !f.secret).map((f) => [f.name, storedValue(channel, f.stored)])) },
    // Secrets are sent only when typed (one left empty is kept); a setting only when it differs
    // from the stored one, and one emptied that was set is removed (`--clear`).
    toInput: (v) => {
      const given: Partial<Record<Field, string>> = {};
      const clear: Field[] = [];
      for (const f of fields) {
        const value = v[f.name]?.trim() ?? '';
        if (f.secret) {
          if (value) given[f.name] = value;
        } else if (value !== storedValue(channel, f.stored)) {
          if (value) given[f.name] = value;
          else if (f.optional) clear.push(f.name);
        }
      }
      return { ...(v.name.trim() !== channel.name ? { name: v.name.trim() } : {}), ...given, ...(clear.length ? { clear: clear.join(',') } : {}) };
    },
    fixed: { group: groupId, channel: channel._id },
    // The command words its refusals (nothing to change, a bad address): said above the buttons.
    field: () => undefined,
    onDone: (_result, _input, v) => {
      toast('success', `Updated channel ${v.name.trim()}`);
      onClose();
    },
  });
  const values = form.values!;
  const { formError: error, busy, submit } = form;
  const name = values.name;

  return (
    <form aria-label={`Edit channel ${channel.name}`} onSubmit={submit} className="w-full space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700" noValidate>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {channelTypeLabels[channel.type]} channel. Secrets are not shown: leave a secret field empty to keep it.
      </p>
      <TextField label="Channel name" value={name} onChange={(v) => form.set('name', v)} isRequired />
      {fields.map((f) => (
        <TextField
          key={f.name}
          label={f.label}
          type={f.secret ? 'password' : 'text'}
          placeholder={f.secret ? `${storedValue(channel, f.stored) || 'not set'} (kept if left empty)` : f.placeholder}
          value={values[f.name] ?? ''}
          onChange={(v) => form.set(f.name, v)}
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
