/**
 * The one form of a request's path that every guard, limit and route sees (Fastify's
 * `rewriteUrl`, app.ts). The router decodes percent-encoding before it matches, while hooks read
 * `request.url` as it came: `/%61pi/auth/signin` reached the sign-in route without passing the
 * cross-site check on `/api/`. Here, before routing:
 *
 * - percent-encoded unreserved characters (letters, digits, `-._~`) are decoded (RFC 3986
 *   §6.2.2.2; repeated, so `%%36%31` cannot turn into a new `%61` for the router to decode);
 *   encoded reserved ones (`%2F`, `%3F`, `%25` …) are left alone, as the router leaves them;
 * - runs of `/` become one, and `.` and `..` segments are resolved (RFC 3986 §5.2.4);
 * - the first segment is lower-cased when it is `api` or `status` in another case, so
 *   `/API/…` meets the guards of `/api/…` (the rest stays case-sensitive and unmatched);
 * - an absolute-form target (`http://host/path`, RFC 9112 §3.2.2) is its path.
 *
 * The query string is kept as it came.
 */
const UNRESERVED = /%(3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa]|2[DdEe]|5[Ff]|7[Ee])/g;
const ROOTS = new Set(['api', 'status']);

export function normalisedUrl(url: string): string {
  let target = url;
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const cut = target.search(/[?#]/);
  const rawPath = cut === -1 ? target : target.slice(0, cut);
  const rest = cut === -1 ? '' : target.slice(cut);
  const path = normalisedPath(rawPath);
  return path === rawPath && !absolute ? url : path + rest;
}

export function normalisedPath(rawPath: string): string {
  let path = rawPath;
  for (let previous = ''; previous !== path; ) {
    previous = path;
    path = path.replace(UNRESERVED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  const out: string[] = [];
  const segments = path.split('/').filter((s, i, all) => s !== '' || i === all.length - 1);
  for (const segment of segments) {
    if (segment === '.') continue;
    if (segment === '..') {
      out.pop();
      continue;
    }
    out.push(segment);
  }
  // A trailing `.`/`..` or slash keeps the path a directory, as the plain form would be.
  const last = segments.at(-1);
  if ((last === '.' || last === '..') && out.at(-1) !== '') out.push('');
  if (out.length && ROOTS.has(out[0]!.toLowerCase())) out[0] = out[0]!.toLowerCase();
  return `/${out.join('/')}`;
}
