import { forecastMetrics, gracePeriodChoices, thresholdChoicesFor, thresholdMetrics, type AlertConfig, type AlertRule, type UpdateAlertConfig } from '../../server/contract/alerts';
import type { DraftStore } from '../../src/lib/draft-store';
import { CommandError } from '../registry';

/**
 * The Alerts Configuration tab's held edits (SPEC §4: "edits are held locally until Update is
 * pressed"), as plain data the screen and the rules.* commands share through `ctx.drafts`.
 * Pure functions: the diffing and the update body are unit-tested without a browser.
 */

/** The fields an operator may change (docs/decisions.md: name, type and metric are fixed). */
export const editableFields = ['enabled', 'threshold', 'timeLimit', 'severity', 'notificationGroup'] as const;
export type EditableField = (typeof editableFields)[number];
export type RuleEdit = Partial<Pick<AlertRule, EditableField>>;

export interface RuleDraft {
  serverId: string;
  hostname: string;
  /** The config as the server last sent it; edits are laid over it. */
  base: AlertConfig;
  /** Per rule id, only the fields that differ from `base`. */
  edits: Record<string, RuleEdit>;
}

export const draftKey = (serverId: string) => `rules:${serverId}`;

export function getDraft(store: DraftStore | undefined, serverId: string): RuleDraft | undefined {
  return store?.get<RuleDraft>(draftKey(serverId));
}

/** Rule names are snake_case; the screen and messages show underscores as spaces (SPEC §2). */
export const ruleLabel = (name: string) => name.replace(/_/g, ' ');

/** "high cpu usage", "High-CPU_usage" and "high_cpu_usage" all name the same rule. */
export const normalizeRuleName = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_');

/**
 * A rule by id or name (spaces or underscores, any case); a unique part of a name also works.
 * Otherwise a readable error listing this server's rules.
 */
export function findRule(rules: readonly AlertRule[], ref: string): AlertRule {
  const value = normalizeRuleName(ref);
  if (!value) throw new CommandError('Name a rule, e.g. "high cpu usage"');
  const exact = rules.find((r) => r._id === ref.trim() || r.name.toLowerCase() === value);
  if (exact) return exact;
  const partial = rules.filter((r) => r.name.toLowerCase().includes(value));
  if (partial.length === 1) return partial[0]!;
  const names = (partial.length > 1 ? partial : rules).map((r) => ruleLabel(r.name)).join(', ');
  throw new CommandError(partial.length > 1 ? `"${ref.trim()}" matches ${partial.length} rules: ${names}. Use the full name.` : `No rule "${ref.trim()}". Rules: ${names}.`);
}

/** The rule as it would be after its edits. */
export function applyEdit(rule: AlertRule, edit: RuleEdit | undefined): AlertRule {
  return edit ? { ...rule, ...edit } : rule;
}

/** The rules as they would be after Update. */
export function draftRules(draft: Pick<RuleDraft, 'base' | 'edits'>): AlertRule[] {
  return draft.base.rules.map((r) => applyEdit(r, draft.edits[r._id]));
}

/**
 * Checks a change against SPEC §5 (threshold choices, only for threshold metrics; grace 60–300 s
 * in whole minutes), so a bad value is refused before anything is held or sent.
 */
export function checkEdit(rule: AlertRule, patch: RuleEdit): void {
  const label = ruleLabel(rule.name);
  if (patch.threshold !== undefined) {
    if (!thresholdMetrics.includes(rule.metric)) throw new CommandError(`${label} has no threshold: it fires when something is down.`);
    const choices = thresholdChoicesFor(rule.metric);
    if (patch.threshold === null || !choices.includes(patch.threshold)) throw new CommandError(`Threshold must be one of ${choices.join(', ')} ${forecastMetrics.includes(rule.metric) ? 'hours' : '%'}.`);
  }
  if (patch.timeLimit !== undefined && !(gracePeriodChoices as readonly number[]).includes(patch.timeLimit)) {
    throw new CommandError('Grace period must be 1 to 5 minutes (60, 120, 180, 240 or 300 s).');
  }
}

/**
 * Lays `patch` over a rule's edits. A field set back to the server's value is dropped, and a
 * rule without differences has no entry: "changed" always means "differs from the server".
 */
export function withEdit(draft: Pick<RuleDraft, 'base' | 'edits'>, ruleId: string, patch: RuleEdit): Record<string, RuleEdit> {
  const rule = draft.base.rules.find((r) => r._id === ruleId);
  if (!rule) throw new CommandError('That rule is not in this config any more; refresh and try again.');
  const merged: RuleEdit = { ...draft.edits[ruleId], ...patch };
  const kept: RuleEdit = {};
  for (const field of editableFields) {
    if (field in merged && merged[field] !== rule[field]) (kept as Record<string, unknown>)[field] = merged[field];
  }
  const next = { ...draft.edits };
  if (Object.keys(kept).length) next[ruleId] = kept;
  else delete next[ruleId];
  return next;
}

/**
 * Keeps the edits that still differ from a config fetched again (refresh, another person's
 * save): an edit the server now agrees with is no longer a change; one for a rule that is gone
 * is dropped.
 */
export function rebase(edits: Record<string, RuleEdit>, base: AlertConfig): Record<string, RuleEdit> {
  let next: Record<string, RuleEdit> = {};
  for (const [ruleId, edit] of Object.entries(edits)) {
    if (base.rules.some((r) => r._id === ruleId)) next = { ...next, ...withEdit({ base, edits: next }, ruleId, edit) };
  }
  return next;
}

/** Ids of the rules that differ from the server. */
export const changedRuleIds = (draft: Pick<RuleDraft, 'edits'>) => Object.keys(draft.edits);
export const isDirty = (draft: Pick<RuleDraft, 'edits'> | undefined) => !!draft && Object.keys(draft.edits).length > 0;

/**
 * What Update sends: PATCH update-alert-config/{id} with the full config (SPEC §7), every rule
 * once, edits applied. Name, type and metric go along unchanged (the server checks they are).
 */
export function updateBody(draft: Pick<RuleDraft, 'base' | 'edits'>): UpdateAlertConfig {
  return {
    _id: draft.base._id,
    serverId: draft.base.serverId,
    rules: draftRules(draft).map((r) => ({
      _id: r._id,
      name: r.name,
      type: r.type,
      metric: r.metric,
      description: r.description,
      enabled: r.enabled,
      timeLimit: r.timeLimit,
      threshold: r.threshold,
      severity: r.severity,
      notificationGroup: r.notificationGroup,
    })),
  };
}

/** "1 minute", "5 minutes". */
export const graceLabel = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} s`);

/**
 * A grace period as typed: seconds (120, "120s") or minutes ("2m", "2 min", or 1–5 on their
 * own, since 1–5 seconds is never a choice). Null when it cannot be read.
 */
export function parseGrace(value: string | number): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? (value >= 1 && value <= 5 ? value * 60 : value) : null;
  const m = /^\s*(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?)?\s*$/i.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? '').toLowerCase();
  if (unit.startsWith('m')) return n * 60;
  if (unit.startsWith('s')) return n;
  return n >= 1 && n <= 5 ? n * 60 : n;
}

/** "95", "95%", 95. Null when it is not a number. */
export function parseThreshold(value: string | number): number | null {
  if (typeof value === 'number') return value;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%|h)?\s*$/.exec(value);
  return m ? Number(m[1]) : null;
}
