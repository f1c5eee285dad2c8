import type { AlertRule } from '../../../server/contract/alerts';
import { formatDuration } from '../../../server/contract/duration';
import { Select } from '../../components/ui/select';
import { Switch } from '../../components/ui/switch';

/** What rules.set-routing takes: "on"/"off", "30m"/"off", "4/30m"/"off". */
export interface RoutingChange {
  hostDown?: 'on' | 'off';
  minInterval?: string;
  flap?: string;
}

const INTERVALS = [300, 900, 1800, 3600, 7200];
const FLAPS: [number, number][] = [
  [3, 600],
  [4, 1800],
  [5, 3600],
  [6, 7200],
];
/** "30m", "1h30m": one word, as the command line reads it. */
const word = (seconds: number) => formatDuration(seconds).replace(/\s+/g, '');
const flapValue = (n: number, w: number) => `${n}/${word(w)}`;

function intervalOptions(current: number | null | undefined) {
  const values = current && !INTERVALS.includes(current) ? [...INTERVALS, current].sort((a, b) => a - b) : INTERVALS;
  return [{ value: 'off', label: 'No minimum' }, ...values.map((s) => ({ value: word(s), label: `At most every ${formatDuration(s)}` }))];
}
function flapOptions(n: number | null | undefined, w: number | null | undefined) {
  const list = n && w && !FLAPS.some(([a, b]) => a === n && b === w) ? [...FLAPS, [n, w] as [number, number]] : FLAPS;
  return [{ value: 'off', label: 'No flap detection' }, ...list.map(([a, b]) => ({ value: flapValue(a, b), label: `${a} changes in ${formatDuration(b)}` }))];
}

/**
 * Issue 14 §4, §5 per rule: host-down suppression, the minimum interval between notifications and
 * the flap detector. Each control runs rules.set-routing, which saves at once (the routing is not
 * part of the held draft that Update sends). Read-only roles see the values as text.
 */
export function RuleRoutingCell({ rule, label, readOnly, onChange }: { rule: AlertRule; label: string; readOnly: boolean; onChange: (change: RoutingChange) => void }) {
  const isDownRule = rule.metric === 'instance_down';
  const hostDown = rule.suppressOnHostDown !== false;
  const interval = rule.minNotifyIntervalSeconds ? word(rule.minNotifyIntervalSeconds) : 'off';
  const flap = rule.flapTransitions && rule.flapWindowSeconds ? flapValue(rule.flapTransitions, rule.flapWindowSeconds) : 'off';
  if (readOnly) {
    return (
      <ul className="space-y-0.5 text-xs text-slate-600 dark:text-slate-400" aria-label={`Routing of ${label}`}>
        {!isDownRule && <li>{hostDown ? 'Muted while host is down' : 'Sent while host is down'}</li>}
        <li>{rule.minNotifyIntervalSeconds ? `At most every ${formatDuration(rule.minNotifyIntervalSeconds)}` : 'No minimum interval'}</li>
        <li>{flap === 'off' ? 'No flap detection' : `Flapping at ${rule.flapTransitions} changes in ${formatDuration(rule.flapWindowSeconds!)}`}</li>
      </ul>
    );
  }
  return (
    <div className="flex min-w-52 flex-col gap-1.5">
      {isDownRule ? (
        <span className="text-xs text-slate-500 dark:text-slate-400">The host-down alert itself</span>
      ) : (
        <Switch aria-label={`Mute while host is down: ${label}`} isSelected={hostDown} onChange={(on) => onChange({ hostDown: on ? 'on' : 'off' })}>
          <span className="text-xs">Mute while host down</span>
        </Switch>
      )}
      <Select aria-label={`Minimum interval of ${label}`} className="w-52" options={intervalOptions(rule.minNotifyIntervalSeconds)} value={interval} onChange={(v) => v !== interval && onChange({ minInterval: v })} />
      <Select aria-label={`Flap detection of ${label}`} className="w-52" options={flapOptions(rule.flapTransitions, rule.flapWindowSeconds)} value={flap} onChange={(v) => v !== flap && onChange({ flap: v })} />
    </div>
  );
}
