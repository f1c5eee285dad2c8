import type { ArgShape } from './arg-spec';
import { formatDuration } from './duration';
import { matcherText, type Matcher } from './routing';

/**
 * The inverse of parseCommandLine: `user.show --user ann`, quoting values with spaces. With the
 * command's `args`, every value is spelled so that the line parses back to the same input: lists
 * as one text ("a@x.io, b@x.io", what list arguments accept on the command line), a value that
 * starts with "-" as `--name=value` (else it would read as a flag), booleans as `--flag` or
 * `--flag false`. Password arguments are left out: a line is shown and stored, a secret is not.
 */
export function commandLineFor(id: string, input: Record<string, unknown>, args?: readonly ArgShape[]): string {
  const parts = [id];
  for (const [name, value] of Object.entries(input)) {
    const spec = args?.find((a) => a.name === name);
    if (spec?.kind === 'password' || value === undefined || value === null) continue;
    if (value === true && (!spec || spec.kind === 'boolean')) {
      parts.push(`--${name}`);
      continue;
    }
    // A span given in seconds (a screen's, a re-run's) reads back from words: a bare number is minutes.
    const text = name === 'for' && typeof value === 'number' ? spanWords(value) : spell(value);
    parts.push(text.startsWith('-') ? `--${name}=${quote(text)}` : `--${name} ${quote(text)}`);
  }
  return parts.join(' ');
}

/** A span as people write it: `2h`, `1h30m` (what `--for` reads back). */
export const spanWords = (seconds: number): string => formatDuration(seconds).replace(/\s+/g, '');

const isMatcher = (v: unknown): v is Matcher =>
  !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).sort().join() === 'name,op,value' && typeof (v as Matcher).value === 'string';

/** A value as the command line writes it; a list of matchers as Alertmanager writes them (`hostname=cache-01, alertname=…`). */
export function spell(value: unknown): string {
  if (Array.isArray(value) && value.length && value.every(isMatcher)) return value.map(matcherText).join(', ');
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function quote(value: string): string {
  return /^[^\s"'\\]+$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1')}"`;
}
