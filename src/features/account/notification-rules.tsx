import { useQuery } from '@tanstack/react-query';
import { contactKindLabels, type NotificationRule } from '../../../server/contract/contact-methods';
import { contactMethodsQueryOptions, notificationRulesQueryOptions } from '../../api/contact-methods';
import { Button } from '../../components/ui/button';
import { LoadError } from '../../components/ui/load-error';
import { Select } from '../../components/ui/select';
import { TextField } from '../../components/ui/text-field';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';

type Values = { method: string; after: string };
const blank: Values = { method: '', after: '0' };
const when = (afterMinutes: number) => (afterMinutes === 0 ? 'At once' : `After ${afterMinutes} min`);

/**
 * Issue 27 §2: the steps a person is paged in while an alert stays unacknowledged ("at once:
 * ntfy; after 5 min: SMS"), beside their contact methods. Runs contact.rule-add and
 * contact.rule-remove (with `--user` for an admin on someone else's, `person`).
 */
export function NotificationRules({ userId, person }: { userId: string; person?: string }) {
  const whose = person ? { user: person } : {};
  const runner = useCommandRunner();
  const rules = useQuery(notificationRulesQueryOptions(userId));
  const methods = useQuery(contactMethodsQueryOptions(userId));
  const verified = (methods.data?.result.data ?? []).filter((m) => m.verified);
  const form = useCommandForm<'contact.rule-add', Values, 'method' | 'after'>('contact.rule-add', {
    initial: blank,
    toInput: (v) => ({ method: v.method, ...(v.after.trim() ? { after: v.after.trim() } : {}), ...whose }),
    field: (name) => (name === 'afterMinutes' || name === 'after' ? 'after' : name === 'method' ? 'method' : undefined),
    onDone: () => {
      form.reset(blank);
    },
  });
  const values = form.values!;
  const allowed = runner.check('contact.rule-add');
  const answer = rules.data?.result;
  const steps = answer?.data ?? [];
  const method = values.method || verified[0]?.label || '';

  return (
    <section className="space-y-3" aria-labelledby="notification-rules-heading">
      <h3 id="notification-rules-heading" className="text-sm font-semibold text-slate-500 uppercase dark:text-slate-400">
        Notification rules
      </h3>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        {person ? `How ${person} is paged` : 'How you are paged'} while an alert stays unacknowledged: each step sends to its contact method after its delay, until the alert is acknowledged or resolved.
      </p>
      {rules.isPending && <p className="text-sm text-slate-500 dark:text-slate-400">Loading…</p>}
      {rules.isError && <LoadError title="Could not load notification rules:" detail={rules.error.message} onRetry={() => void rules.refetch()} retrying={rules.isFetching} compact />}
      {answer?.isDefault && (
        <p className="text-sm text-slate-500 dark:text-slate-400">{steps.length ? 'No rules set: every verified contact method is paged at once.' : 'No rules set, and no verified contact method: a page reaches nobody.'}</p>
      )}
      {steps.length > 0 && (
        <ol aria-label={person ? `Notification rules of ${person}` : 'Your notification rules'} className="divide-y divide-slate-100 rounded-md border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
          {steps.map((r) => (
            <RuleRow key={r._id ?? `default-${r.method._id}`} rule={r} whose={whose} />
          ))}
        </ol>
      )}
      {verified.length > 0 ? (
        <form
          aria-label="Add notification rule"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            // The first verified method is shown chosen before anyone picks one.
            if (method) void form.submit(undefined, { values: { ...values, method } });
          }}
        >
          <Select label="Contact method" options={verified.map((m) => ({ value: m.label, label: `${m.label} (${contactKindLabels[m.kind]})` }))} value={method || null} onChange={(v) => form.set('method', v)} errorMessage={form.errors.method} className="min-w-48" />
          <TextField label="After minutes unacknowledged" placeholder="0: at once" inputMode="numeric" value={values.after} onChange={(v) => form.set('after', v)} errorMessage={form.errors.after ?? form.formError ?? undefined} className="w-48" />
          <Button type="submit" isDisabled={!method || form.busy} disabledReason={allowed === true ? undefined : allowed}>
            Add step
          </Button>
        </form>
      ) : (
        !methods.isPending && <p className="text-xs text-slate-500 dark:text-slate-400">Verify a contact method to add steps.</p>
      )}
    </section>
  );
}

function RuleRow({ rule, whose }: { rule: NotificationRule; whose: { user?: string } }) {
  return (
    <li className="flex flex-wrap items-center gap-3 px-3 py-2 text-sm">
      <span className="w-28 font-medium">{when(rule.afterMinutes)}</span>
      <span className="min-w-0 flex-1">
        {rule.method.label}
        <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">{rule.method.target}</span>
        {!rule.method.verified && <span className="ml-2 text-xs text-amber-700 dark:text-amber-400">Not verified: skipped</span>}
      </span>
      {rule._id && (
        <CommandButton command="contact.rule-remove" input={{ method: rule.method.label, after: rule.afterMinutes, ...whose }} size="sm" variant="danger" aria-label={`Remove step ${rule.method.label} ${when(rule.afterMinutes).toLowerCase()}`}>
          Remove
        </CommandButton>
      )}
    </li>
  );
}
