import type { ArgSpec } from './define-command';

/**
 * The inverse of parseCommandLine: `user.show --user ann`, quoting values with spaces. With the
 * command's `args`, every value is spelled so that the line parses back to the same input: lists
 * as one text ("a@x.io, b@x.io", what list arguments accept on the command line), a value that
 * starts with "-" as `--name=value` (else it would read as a flag), booleans as `--flag` or
 * `--flag false`. Password arguments are left out: a line is shown and stored, a secret is not.
 */
export function commandLineFor(id: string, input: Record<string, unknown>, args?: readonly ArgSpec[]): string {
  const parts = [id];
  for (const [name, value] of Object.entries(input)) {
    const spec = args?.find((a) => a.name === name);
    if (spec?.kind === 'password' || value === undefined || value === null) continue;
    if (value === true && (!spec || spec.kind === 'boolean')) {
      parts.push(`--${name}`);
      continue;
    }
    const text = spell(value);
    parts.push(text.startsWith('-') ? `--${name}=${quote(text)}` : `--${name} ${quote(text)}`);
  }
  return parts.join(' ');
}

/** A value as the command line writes it. */
export function spell(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function quote(value: string): string {
  return /^[^\s"'\\]+$/.test(value) ? value : `"${value.replace(/(["\\])/g, '\\$1')}"`;
}
