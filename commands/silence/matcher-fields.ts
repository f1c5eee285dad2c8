import { z } from 'zod';
import { matcherSchema, matcherText, parseMatcher, type Matcher, type MatchPreview } from '../../server/contract/routing';
import type { ArgSpec } from '../define-command';
import { parseDuration } from '../../server/contract/duration';

/**
 * Matchers as the command line writes them, Alertmanager's way: `hostname=~web-.*,
 * alertname=high_cpu_usage, label.env!=dev` (a comma before the next `name op` separates them,
 * so a regex may hold commas: `a{1,2}`). Screens and re-runs from the history pass the list.
 */
export function parseMatchers(text: string): Matcher[] {
  return text
    .split(/,\s*(?=[A-Za-z_][A-Za-z0-9_.-]*\s*(?:=~|!~|!=|=))/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const m = parseMatcher(part);
      if (!m) throw new Error(`"${part}" is not a matcher: write name=value, name!=value, name=~regex or name!~regex`);
      return m;
    });
}

export const matchersSchema = z.union([z.string(), z.array(matcherSchema)], { error: 'matchers: give matchers like hostname=~web-.*' }).transform((v, ctx) => {
  if (Array.isArray(v)) return v;
  try {
    const list = parseMatchers(v);
    if (!list.length) throw new Error('Give at least one matcher, e.g. hostname=~web-.*');
    return list;
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : String(err) });
    return z.NEVER;
  }
});

export const matchersArg = { name: 'matchers', label: 'Matchers', kind: 'text', positional: true, placeholder: 'e.g. hostname=~web-.*, alertname=high_cpu_usage' } as const satisfies ArgSpec;

/** "30m", "2h", "1d" (a bare number is minutes), or the seconds a re-run recorded. */
export const spanSchema = (what: string) =>
  z.union([z.string(), z.number()]).transform((v, ctx) => {
    const s = typeof v === 'number' ? v : parseDuration(v);
    if (s === undefined || !Number.isInteger(s) || s < 60) {
      ctx.addIssue({ code: 'custom', message: `${what}: give a duration like 30m, 2h or 1d` });
      return z.NEVER;
    }
    return s;
  });

/** A date and time as typed ("2026-06-01 02:00", ISO 8601 with or without a zone: without one, local time). */
export const timeSchema = (what: string) =>
  z.string().transform((v, ctx) => {
    const text = v.trim().replace(/^(\d{4}-\d\d-\d\d) (\d)/, '$1T$2');
    const d = new Date(text);
    if (!text || Number.isNaN(d.getTime())) {
      ctx.addIssue({ code: 'custom', message: `${what}: give a date and time like 2026-06-01 02:00 or 2026-06-01T02:00:00Z` });
      return z.NEVER;
    }
    return d.toISOString();
  });

export const describeMatchers = (list: readonly Matcher[]) => list.map(matcherText).join(', ');

/** "3 open alerts on 2 servers" and the warning, for messages and confirmations. */
export function previewText(p: MatchPreview): string {
  const alerts = `${p.alertCount} open alert${p.alertCount === 1 ? '' : 's'}`;
  const servers = `${p.serverCount} server${p.serverCount === 1 ? '' : 's'}`;
  return `matches ${alerts} and ${servers} now${p.warning ? ` — ${p.warning}` : ''}`;
}
