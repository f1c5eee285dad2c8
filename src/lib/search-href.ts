// TanStack Router's default search serialisation: a string that would parse as JSON (a number,
// true, null, a quoted string) is written JSON-quoted so it comes back a string.
const JSON_START = /^[\d\-"{[tfn]/;
function encodeValue(v: unknown): string {
  if (typeof v === 'string') {
    if (JSON_START.test(v)) {
      try {
        JSON.parse(v);
        return JSON.stringify(v);
      } catch {
        return v;
      }
    }
    return v;
  }
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** `path?…` for a search object as the router reads it back; undefined and empty values are left out. */
export function searchHref(path: string, search: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, encodeValue(v));
  }
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}`;
}
