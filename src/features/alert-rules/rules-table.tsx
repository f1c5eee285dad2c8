import { alertTypeLabel, formatThreshold, gracePeriodChoices, severities, thresholdChoicesFor, thresholdMetrics, type AlertRule, type RuleMetric, type Severity } from '../../../server/contract/alerts';
import { graceLabel, ruleLabel } from '../../../commands/rules/rule-draft';
import { cx } from '../../components/ui/cx';
import { Select } from '../../components/ui/select';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { GroupPicker, useGroupName } from './group-picker';
import { RuleRoutingCell, type RoutingChange } from './rule-routing-cell';

// Routing (issue 14 §4, §5) extends SPEC's columns; it comes after them so theirs keep their places.
const COLUMNS = ['Name', 'Description', 'Type', 'Threshold', 'Grace Period', 'Severity', 'Notification Group', 'Enabled', 'Routing'] as const;

/** Percent choices (SPEC §5), or hours for forecast rules (issue 16). */
const thresholdOptions = (metric: RuleMetric) => thresholdChoicesFor(metric).map((t) => ({ value: String(t), label: formatThreshold(metric, t) }));
const severityTone: Record<Severity, string> = {
  critical: 'text-red-600 dark:text-red-400',
  warning: 'text-orange-700 dark:text-orange-400',
  normal: 'text-slate-700 dark:text-slate-300',
  info: 'text-blue-700 dark:text-blue-300',
};

/** A value outside SPEC's choices (an older config) stays visible and selectable as it is. */
function graceOptions(current: number) {
  const values: number[] = (gracePeriodChoices as readonly number[]).includes(current) ? [...gracePeriodChoices] : [...gracePeriodChoices, current].sort((a, b) => a - b);
  return values.map((s) => ({ value: String(s), label: graceLabel(s) }));
}

export interface RuleActions {
  setEnabled: (rule: AlertRule, on: boolean) => void;
  setThreshold: (rule: AlertRule, threshold: number) => void;
  setGrace: (rule: AlertRule, seconds: number) => void;
  setSeverity: (rule: AlertRule, severity: Severity) => void;
  setGroup: (rule: AlertRule, group: string) => void;
  /** Saved at once (rules.set-routing), not held in the draft. */
  setRouting: (rule: AlertRule, change: RoutingChange) => void;
}

/** SPEC §2 rules table: each control runs a rules.* command; read-only roles see plain values. */
export function RulesTable({ rows, changed, loading, readOnly, actions, caption }: { rows: AlertRule[]; changed: ReadonlySet<string>; loading: boolean; readOnly: boolean; actions: RuleActions; caption: string }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" aria-busy={loading || undefined}>
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase dark:border-slate-700 dark:text-slate-400">
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col" className="px-2 py-2 font-semibold whitespace-nowrap">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading
            ? Array.from({ length: 6 }, (_, i) => (
                <tr key={i}>
                  {COLUMNS.map((c) => (
                    <td key={c} className="px-2 py-2.5">
                      <Skeleton className="h-4 w-20" />
                    </td>
                  ))}
                </tr>
              ))
            : rows.map((rule) => <RuleRow key={rule._id} rule={rule} changed={changed.has(rule._id)} readOnly={readOnly} actions={actions} />)}
        </tbody>
      </table>
    </div>
  );
}

function RuleRow({ rule, changed, readOnly, actions }: { rule: AlertRule; changed: boolean; readOnly: boolean; actions: RuleActions }) {
  const label = ruleLabel(rule.name);
  const hasThreshold = thresholdMetrics.includes(rule.metric);
  const groupName = useGroupName(rule.notificationGroup);
  return (
    <tr
      data-changed={changed || undefined}
      className={cx('border-b border-slate-100 align-middle last:border-0 dark:border-slate-800', changed && 'bg-amber-50 shadow-[inset_3px_0_0_var(--color-amber-500)] dark:bg-amber-950/40')}
    >
      <th scope="row" className="px-2 py-2 font-medium whitespace-nowrap">
        {label}
        {changed && (
          <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-800 dark:text-amber-100" title="Changed, not saved yet">
            Edited
          </span>
        )}
      </th>
      <td className="max-w-48 min-w-32 px-2 py-2 text-xs text-slate-600 dark:text-slate-400">{rule.description}</td>
      <td className="px-2 py-2 whitespace-nowrap">{alertTypeLabel(rule.type)}</td>
      <td className="px-2 py-2">
        {!hasThreshold ? (
          <span aria-label="No threshold">—</span>
        ) : readOnly ? (
          formatThreshold(rule.metric, rule.threshold!)
        ) : (
          <Select aria-label={`Threshold of ${label}`} className="w-24" options={thresholdOptions(rule.metric)} value={String(rule.threshold)} onChange={(v) => actions.setThreshold(rule, Number(v))} />
        )}
      </td>
      <td className="px-2 py-2 whitespace-nowrap">
        {readOnly ? graceLabel(rule.timeLimit) : <Select aria-label={`Grace period of ${label}`} className="w-28" options={graceOptions(rule.timeLimit)} value={String(rule.timeLimit)} onChange={(v) => actions.setGrace(rule, Number(v))} />}
      </td>
      <td className="px-2 py-2">
        {readOnly ? (
          <span className={cx('font-medium', severityTone[rule.severity])}>{rule.severity}</span>
        ) : (
          <Select<Severity> aria-label={`Severity of ${label}`} className="w-28" options={severities.map((s) => ({ value: s, label: s }))} value={rule.severity} onChange={(v) => actions.setSeverity(rule, v)} />
        )}
      </td>
      <td className="px-2 py-2">{readOnly ? groupName : <GroupPicker value={rule.notificationGroup} ruleLabel={label} onChoose={(g) => actions.setGroup(rule, g)} />}</td>
      <td className="px-2 py-2">
        <Switch aria-label={`Enabled: ${label}`} isSelected={rule.enabled} isDisabled={readOnly} onChange={(on) => actions.setEnabled(rule, on)} />
      </td>
      <td className="px-2 py-2">
        <RuleRoutingCell rule={rule} label={label} readOnly={readOnly} onChange={(change) => actions.setRouting(rule, change)} />
      </td>
    </tr>
  );
}
