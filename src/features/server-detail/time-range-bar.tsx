import { useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Segmented } from '../../components/ui/segmented';
import { Select } from '../../components/ui/select';
import { inputClass } from '../../components/ui/text-field';
import { cx } from '../../components/ui/cx';
import { formatChartTime } from '../../lib/chart-format';
import type { ServerView } from '../../lib/server-view';
import { parseDateTime, rangePresets, refreshOptions, toDateTimeInput, validateCustomRange, type RefreshInterval, type TimeZoneChoice } from '../../lib/time-range';
import { useCommandRunner } from '../../app/command-host/run-command';

const zoneOptions = [
  { value: 'utc', label: 'UTC' },
  { value: 'local', label: 'Local' },
] as const;

/**
 * SPEC §2 time-range bar of the metric tabs: presets Last 1/3/6/12/24 Hours, a custom start and
 * end pair, UTC/Local and the auto-refresh interval. Every choice runs its `server.*` command,
 * which writes the URL; the charts follow the URL.
 */
export function TimeRangeBar({ view, window }: { view: ServerView; window: { from: number; to: number } }) {
  const { run } = useCommandRunner();
  const [customOpen, setCustomOpen] = useState(false);
  const custom = view.range === 'custom';

  return (
    <div className="space-y-2">
      <div role="group" aria-label="Time range" className="flex flex-wrap items-center gap-2">
        <Segmented
          aria-label="Range"
          size="sm"
          options={rangePresets.map((p) => ({ value: p.value, label: p.label }))}
          value={custom ? null : (view.range as (typeof rangePresets)[number]['value'])}
          onChange={(range) => {
            setCustomOpen(false);
            void run('server.time-range', { range });
          }}
        />
        <Button size="sm" variant={custom || customOpen ? 'primary' : 'secondary'} aria-expanded={customOpen} onPress={() => setCustomOpen((o) => !o)}>
          Custom range
        </Button>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <Segmented aria-label="Time zone" size="sm" options={zoneOptions} value={view.tz} onChange={(tz) => void run('server.timezone', { tz })} />
          <Select<RefreshInterval>
            aria-label="Auto-refresh"
            className="w-32"
            value={view.refresh}
            options={refreshOptions.map((o) => ({ value: o.value, label: `Every ${o.label}` }))}
            onChange={(interval) => void run('server.refresh-interval', { interval })}
          />
        </div>
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400" aria-live="polite">
        {formatChartTime(window.from / 1000, view.tz)} – {formatChartTime(window.to / 1000, view.tz)}
        {custom ? '' : `, refreshing every ${view.refresh}`}
      </p>
      {customOpen && <CustomRangeForm view={view} window={window} onDone={() => setCustomOpen(false)} />}
    </div>
  );
}

/** Start and end, typed in the zone the charts show; both or neither (SPEC: a start and end pair). */
function CustomRangeForm({ view, window, onDone }: { view: ServerView; window: { from: number; to: number }; onDone: () => void }) {
  const { run } = useCommandRunner();
  const tz: TimeZoneChoice = view.tz;
  const [start, setStart] = useState(() => toDateTimeInput(window.from, tz));
  const [end, setEnd] = useState(() => toDateTimeInput(window.to, tz));
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const apply = async () => {
    const from = parseDateTime(start, tz);
    const to = parseDateTime(end, tz);
    const valid = from === null && start ? 'Cannot read the start.' : to === null && end ? 'Cannot read the end.' : validateCustomRange(from, to);
    if (valid !== true) {
      setError(valid);
      return;
    }
    setError(null);
    // validateCustomRange said both are there.
    if (await run('server.time-range', { range: 'custom', from: from!, to: to! })) onDone();
  };

  return (
    <form
      aria-label="Custom range"
      className="flex flex-wrap items-end gap-3 rounded-md border border-slate-200 bg-slate-50 p-3 dark:border-slate-700 dark:bg-slate-800/50"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onDone();
      }}
    >
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300" htmlFor={`${id}-from`}>
        Start ({tz === 'utc' ? 'UTC' : 'local'})
        <input id={`${id}-from`} type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} className={cx(inputClass, 'w-56 dark:[color-scheme:dark]')} />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700 dark:text-slate-300" htmlFor={`${id}-to`}>
        End ({tz === 'utc' ? 'UTC' : 'local'})
        <input id={`${id}-to`} type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} className={cx(inputClass, 'w-56 dark:[color-scheme:dark]')} />
      </label>
      <Button type="submit" variant="primary" size="sm">
        Apply
      </Button>
      <Button size="sm" variant="ghost" onPress={onDone}>
        Cancel
      </Button>
      {error && (
        <p role="alert" className="w-full text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
