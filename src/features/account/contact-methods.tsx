import { useQuery } from '@tanstack/react-query';
import { contactKindLabels, contactKinds, type ContactKind, type ContactMethod } from '../../../server/contract/contact-methods';
import { contactMethodsQueryOptions } from '../../api/contact-methods';
import { Button } from '../../components/ui/button';
import { LoadError } from '../../components/ui/load-error';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';

type Values = { kind: ContactKind; label: string; to: string; key: string };
const blank: Values = { kind: 'email', label: '', to: '', key: '' };

/** What each kind asks for: its address (`to`) and its secret (`key`), as contact.add takes them. */
const FIELDS: Record<ContactKind, { to?: string; key?: string; placeholder?: string }> = {
  email: { to: 'Email address' },
  ntfy: { key: 'Topic' },
  telegram: { to: 'Chat id', key: 'Bot token' },
  slack: { to: 'Slack member id', placeholder: 'U024BE7LH' },
  pushover: { key: 'User key' },
  webhook: { key: 'Webhook URL' },
  sms: { to: 'Phone number', placeholder: '+15550100123' },
  voice: { to: 'Phone number', placeholder: '+15550100123' },
};

/**
 * Issue 27 §2: your contact methods in Account Settings — add one, send it a test message with a
 * code, enter the code to verify it, remove it. Every action runs a `contact.*` command. On the
 * user drawer an admin sees another person's (`person`): the same commands with `--user`.
 */
export function ContactMethods({ userId, person }: { userId: string; person?: string }) {
  // Named as people read it, so History's line says whose methods these were.
  const whose = person ? { user: person } : {};
  const runner = useCommandRunner();
  const query = useQuery(contactMethodsQueryOptions(userId));
  const form = useCommandForm<'contact.add', Values, 'label'>('contact.add', {
    initial: blank,
    toInput: (v) => ({ kind: v.kind, label: v.label, ...(v.to.trim() ? { to: v.to } : {}), ...(v.key.trim() ? { key: v.key } : {}), ...whose }),
    onDone: () => {
      form.reset(blank);
    },
  });
  const values = form.values!;
  const fields = FIELDS[values.kind];
  const allowed = runner.check('contact.add');
  const methods = query.data?.result.data ?? [];

  return (
    <section className="space-y-3" aria-labelledby="contact-methods-heading">
      <h3 id="contact-methods-heading" className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">
        Contact methods
      </h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">{person ? `Where ${person} is reached when paged.` : 'Where you are reached when you are paged.'} Each is verified by the code of a test message before it is used.</p>
      <form
        aria-label="Add contact method"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (values.label.trim()) void form.submit();
        }}
      >
        <Select label="Kind" options={contactKinds.map((k) => ({ value: k, label: contactKindLabels[k] }))} value={values.kind} onChange={(v) => form.set('kind', v)} className="w-36" />
        <TextField label="Label" placeholder="e.g. Mobile" value={values.label} onChange={(v) => form.set('label', v)} errorMessage={form.errors.label ?? form.formError ?? undefined} className="min-w-36 flex-1" />
        {fields.to && <TextField label={fields.to} placeholder={fields.placeholder} value={values.to} onChange={(v) => form.set('to', v)} className="min-w-48 flex-1" />}
        {fields.key && <TextField label={fields.key} type="password" value={values.key} onChange={(v) => form.set('key', v)} className="min-w-48 flex-1" />}
        <Button type="submit" isDisabled={!values.label.trim() || form.busy} disabledReason={allowed === true ? undefined : allowed}>
          Add contact method
        </Button>
      </form>
      {query.isPending && <p className="text-sm text-slate-500 dark:text-slate-400">Loading…</p>}
      {query.isError && <LoadError title="Could not load contact methods:" detail={query.error.message} onRetry={() => void query.refetch()} retrying={query.isFetching} compact />}
      {!query.isPending && !query.isError && !methods.length && <p className="text-sm text-slate-500 dark:text-slate-400">No contact methods yet.</p>}
      {methods.length > 0 && (
        <ul aria-label={person ? `Contact methods of ${person}` : 'Your contact methods'} className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {methods.map((m) => (
            <ContactRow key={m._id} method={m} whose={whose} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** One method: where it sends, whether it is verified, and its actions; the code field once a code was sent. */
function ContactRow({ method, whose }: { method: ContactMethod; whose: { user?: string } }) {
  const verify = useCommandForm<'contact.verify', { code: string }, 'code'>('contact.verify', {
    initial: { code: '' },
    toInput: (v) => ({ method: method.label, code: v.code, ...whose }),
    onDone: () => {
      verify.reset({ code: '' });
    },
  });
  const code = verify.values!.code;
  return (
    <li className="space-y-2 px-3 py-2 text-sm">
      <div className="flex flex-wrap items-center gap-3">
        <div className="min-w-0 flex-1">
          <span className="font-medium">{method.label}</span>
          <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">{method.target}</span>
          <span className={method.verified ? 'ml-2 text-xs text-emerald-700 dark:text-emerald-400' : 'ml-2 text-xs text-amber-700 dark:text-amber-400'}>{method.verified ? 'Verified' : 'Not verified'}</span>
        </div>
        <CommandButton command="contact.test" input={{ method: method.label, ...whose }} size="sm" aria-label={`Send test message to ${method.label}`}>
          Send test message
        </CommandButton>
        <CommandButton command="contact.remove" input={{ method: method.label, ...whose }} size="sm" variant="danger" aria-label={`Remove ${method.label}`}>
          Remove
        </CommandButton>
      </div>
      {method.codeExpiresAt && (
        <form
          aria-label={`Verify ${method.label}`}
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (code.trim()) void verify.submit();
          }}
        >
          <TextField label="Code from the test message" placeholder="6 digits" value={code} onChange={(v) => verify.set('code', v)} errorMessage={verify.errors.code ?? verify.formError ?? undefined} className="w-48" />
          <Button type="submit" size="sm" isDisabled={!code.trim() || verify.busy}>
            Verify
          </Button>
        </form>
      )}
    </li>
  );
}
