/**
 * Chart series keys: `name` or `name{a="1",b="2"}`, labels sorted by name and values escaped as
 * in the exposition format, so one series always has exactly one key and keys parse back.
 */

export interface ParsedSeriesKey {
  name: string;
  labels: Record<string, string>;
}

function escapeValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

export function seriesKey(name: string, labels?: Readonly<Record<string, string>>): string {
  if (!labels) return name;
  const names = Object.keys(labels);
  if (names.length === 0) return name;
  names.sort();
  return `${name}{${names.map((n) => `${n}="${escapeValue(labels[n]!)}"`).join(',')}}`;
}

/** The inverse of seriesKey; null for text that is not a key it could have made. */
export function parseSeriesKey(key: string): ParsedSeriesKey | null {
  const brace = key.indexOf('{');
  if (brace === -1) return /^[A-Za-z_:][A-Za-z0-9_:]*$/.test(key) ? { name: key, labels: {} } : null;
  if (!key.endsWith('}')) return null;
  const name = key.slice(0, brace);
  const labels: Record<string, string> = {};
  const body = key.slice(brace + 1, -1);
  let i = 0;
  while (i < body.length) {
    const eq = body.indexOf('="', i);
    if (eq === -1) return null;
    const labelName = body.slice(i, eq);
    let value = '';
    let j = eq + 2;
    for (; j < body.length && body[j] !== '"'; j++) {
      if (body[j] === '\\') {
        j++;
        value += body[j] === 'n' ? '\n' : body[j];
      } else value += body[j];
    }
    if (j >= body.length) return null;
    labels[labelName] = value;
    i = j + 1;
    if (body[i] === ',') i++;
    else if (i !== body.length) return null;
  }
  return { name, labels };
}
