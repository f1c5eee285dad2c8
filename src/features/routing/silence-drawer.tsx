import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { Matcher } from '../../../server/contract/routing';
import { silencePreviewQueryOptions, silenceQueryOptions } from '../../api/silences';
import { FormDrawer } from '../../components/ui/drawer';
import { Select } from '../../components/ui/select';
import { inputClass, TextField } from '../../components/ui/text-field';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
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

/**
 * New or edit silence (a 756 px drawer over the list): matchers, how long, a comment, and before
 * saving a preview of what it matches now, with a warning when that is nothing. Saving runs
 * `silence.create` / `silence.edit`, which refuse what the API refuses (a bad regex names its row).
 */
export function SilenceDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const runner = useCommandRunner();
  const existing = useQuery({ ...silenceQueryOptions(id ?? ''), enabled: id !== null });
  const [matchers, setMatchers] = useState<Matcher[]>([{ name: 'hostname', op: '=~', value: '' }]);
  const [duration, setDuration] = useState<DurationChoice>('7200');
  const [until, setUntil] = useState('');
  const [comment, setComment] = useState('');
  const [errors, setErrors] = useState<{ form?: string; comment?: string; until?: string }>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const s = existing.data?.result;
    if (!s) return;
    setMatchers(s.matchers);
    setDuration('until');
    setUntil(toLocalInput(s.endsAt));
    setComment(s.comment);
  }, [existing.data]);

  const ready = completeMatchers(matchers);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { comment: comment.trim() ? undefined : 'Say why (shown on every silenced alert)', until: duration === 'until' && !until ? 'Choose when it ends' : undefined };
    setErrors(next);
    if (next.comment || next.until) return;
    setBusy(true);
    try {
      const end = duration === 'until' ? { until: fromLocalInput(until) } : { for: Number(duration) };
      const r = id === null ? await runner.runOrThrow('silence.create', { matchers, comment, ...end }) : await runner.runOrThrow('silence.edit', { silence: id, matchers, comment, ...end });
      toast('success', (r.message ?? 'Saved').replace(/\*\*|`/g, ''));
      onClose();
    } catch (err) {
      setErrors({ form: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDrawer title={id === null ? 'New silence' : 'Edit silence'} formId="silence-form" mode={id === null ? 'create' : 'edit'} busy={busy} loading={id !== null && existing.isPending} onClose={onClose}>
      <form id="silence-form" noValidate onSubmit={(e) => void submit(e)} className="flex flex-col gap-4">
        <MatchersEditor value={matchers} onChange={setMatchers} />
        <div className="flex flex-wrap items-end gap-3">
          <Select<DurationChoice> label="Silence for" className="w-48" options={durations} value={duration} onChange={setDuration} />
          {duration === 'until' && (
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300">
              Ends
              <input type="datetime-local" className={inputClass} value={until} onChange={(e) => setUntil(e.target.value)} aria-invalid={!!errors.until || undefined} />
              {errors.until && <span className="text-xs text-red-600 dark:text-red-400">{errors.until}</span>}
            </label>
          )}
        </div>
        <TextField label="Comment" placeholder="Why (shown on every silenced alert)" isRequired value={comment} onChange={setComment} errorMessage={errors.comment} />
        <MatchPreview body={{ matchers: ready }} options={silencePreviewQueryOptions} enabled={ready.length > 0} what="a matcher" />
        {errors.form && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.form}
          </p>
        )}
      </form>
    </FormDrawer>
  );
}
