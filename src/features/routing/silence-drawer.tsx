import { useQuery } from '@tanstack/react-query';
import type { Matcher } from '../../../server/contract/routing';
import { silencePreviewQueryOptions, silenceQueryOptions } from '../../api/silences';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { inputClass, TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { completeMatchers, MatchersEditor } from './matchers-editor';
import { MatchPreview } from './match-preview';
import { fromLocalInput, toLocalInput } from './routing-search';

const durations = [
  { value: '3600', label: '1 hour' },
  { value: '7200', label: '2 hours' },
  { value: '14400', label: '4 hours' },
  { value: '28800', label: '8 hours' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '1 week' },
  { value: 'until', label: 'Until a time…' },
] as const;
type DurationChoice = (typeof durations)[number]['value'];
interface Values {
  matchers: Matcher[];
  duration: DurationChoice;
  until: string;
  comment: string;
}
const blank: Values = { matchers: [{ name: 'hostname', op: '=~', value: '' }], duration: '7200', until: '', comment: '' };

/**
 * New or edit silence (a 756 px drawer over the list): matchers, how long, a comment, and before
 * saving a preview of what it matches now, with a warning when that is nothing. Saving runs
 * `silence.create` / `silence.edit`, which refuse what the API refuses (a bad regex names its row).
 */
export function SilenceDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const existing = useQuery({ ...silenceQueryOptions(id ?? ''), enabled: id !== null });
  const found = existing.data?.result;
  const form = useCommandForm<'silence.create' | 'silence.edit', Values, 'comment' | 'until'>(id === null ? 'silence.create' : 'silence.edit', {
    // An edit fills in when the silence arrives; one that cannot be loaded opens as a new one would.
    initial: found ? { matchers: found.matchers, duration: 'until', until: toLocalInput(found.endsAt), comment: found.comment } : id === null || existing.isError ? blank : null,
    toInput: (v) => ({ matchers: v.matchers, comment: v.comment, ...(v.duration === 'until' ? { until: fromLocalInput(v.until) } : { for: Number(v.duration) }) }),
    ...(id === null ? {} : { fixed: { silence: id } }),
    validate: (v) => ({ comment: v.comment.trim() ? undefined : 'Say why (shown on every silenced alert)', until: v.duration === 'until' && !v.until ? 'Choose when it ends' : undefined }),
    // The API's refusals (a bad regex names its row) are said above the buttons, as the command words them.
    field: (name) => (name === 'comment' || name === 'until' ? name : undefined),
    onDone: (r) => {
      toast('success', (r?.message ?? 'Saved').replace(/\*\*|`/g, ''));
      onClose();
    },
  });
  const { matchers, duration, until, comment } = form.values ?? blank;
  const { errors, busy, submit } = form;
  const set = form.set;
  const ready = completeMatchers(matchers);

  return (
    <FormDrawer title={id === null ? 'New silence' : 'Edit silence'} formId="silence-form" mode={id === null ? 'create' : 'edit'} busy={busy} loading={id !== null && existing.isPending} onClose={onClose}>
      <form id="silence-form" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <MatchersEditor value={matchers} onChange={(v) => set('matchers', v)} />
        <div className="flex flex-wrap items-end gap-3">
          <Select<DurationChoice> label="Silence for" className="w-48" options={durations} value={duration} onChange={(v) => set('duration', v)} />
          {duration === 'until' && (
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
              Ends
              <input type="datetime-local" className={inputClass} value={until} onChange={(e) => set('until', e.target.value)} aria-invalid={!!errors.until || undefined} />
              {errors.until && <span className="text-xs text-red-600 dark:text-red-400">{errors.until}</span>}
            </label>
          )}
        </div>
        <TextField label="Comment" placeholder="Why (shown on every silenced alert)" isRequired value={comment} onChange={(v) => set('comment', v)} errorMessage={errors.comment} />
        <MatchPreview body={{ matchers: ready }} options={silencePreviewQueryOptions} enabled={ready.length > 0} what="a matcher" />
        {form.formError && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {form.formError}
          </p>
        )}
      </form>
    </FormDrawer>
  );
}
