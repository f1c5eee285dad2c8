import fc from 'fast-check';
import type { z } from 'zod';
import { exportedSchemas, walkSchema } from './schema-walk';

/** Strings that broke or could break something: prototype names, NUL, lone surrogates, huge, SQL, paths. */
export const HOSTILE_STRINGS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  '\ud800',
  'x\udfffy',
  '\uffff',
  '😀',
  '\u202eevil',
  'x'.repeat(5000),
  '../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  "'; drop table users; --",
  '"',
  '\\',
  '<script>alert(1)</script>',
  '[x](javascript:alert(1))',
  '${7*7}',
  '1e309',
  '-1',
  '0',
  '-0',
  'NaN',
  'Infinity',
  'null',
  'true',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '99999999999999999999999',
  '2026-02-30T25:61:00Z',
  '-271821-04-20T00:00:00Z',
  '275760-09-13T00:00:00.001Z',
  '1970-01-01T00:00:00Z',
  '\n\n# heading\n\n',
];

/** Numbers at the edges of every range and of JavaScript. */
export const HOSTILE_NUMBERS = [0, -1, 1, 0.5, -0.5, 2 ** 31, -(2 ** 31), 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e308, 5e-324, 65536, 86_400_001];

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/json, text/plain',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/xml',
  '',
  ';;;',
];

export interface Pools {
  /** Ids of seeded rows of every kind (servers, users, alerts, groups, configs, rules, keys, history). */
  ids: string[];
  /** Values that pass a schema: enum values, seeded hostnames, emails. */
  valid: string[];
}

/** Any generated value as a dictionary key, even one String() cannot convert. */
function keyText(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return JSON.stringify(value) ?? 'key';
    } catch {
      return 'key';
    }
  }
}

export const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const hostileNumber = fc.oneof(fc.constantFrom(...HOSTILE_NUMBERS), fc.double(), fc.integer());

/** Any JSON value, hostile strings and numbers at the leaves, up to `depth` levels. */
export const hostileJson = (depth: number): fc.Arbitrary<unknown> =>
  fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth: depth },
      hostileString,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(hostileString, fc.constantFrom('id', '_id', 'status', 'filter', 'sort')), tie('value'), { maxKeys: 4 }),
    ),
  })).value;

const VALID_NUMBERS = [0, 1, 2, 5, 60, 80, 85, 90, 95, 99, 120, 300, 600, 9100];

/**
 * Values shaped by a zod schema: mostly ones that pass it (so a request gets past validation to
 * the database), with a hostile value at one leaf in `1 / hostileEvery` and extra keys now and
 * then. What passes validation is what can reach a constraint, a cast or a join and fail there.
 */
export function fromSchema(schema: z.ZodType, pools: Pools, hostileEvery = 6, depth = 0): fc.Arbitrary<unknown> {
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  const inner = (s: unknown) => fromSchema(s as z.ZodType, pools, hostileEvery, depth + 1);
  const spoil = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: hostileEvery - 1, arbitrary: valid }, { weight: 1, arbitrary: hostileJson(1) });
  if (depth > 6) return hostileJson(1);
  switch (def.type) {
    case 'string':
      return spoil(fc.constantFrom('fuzz-text', 'ops@example.com', '10.9.8.7', 'fuzz-linux', '2026-01-01T00:00:00Z', String(Date.now()), ...pools.ids, ...pools.valid));
    case 'number':
    case 'int':
      return spoil(fc.constantFrom(...VALID_NUMBERS));
    case 'boolean':
      return spoil(fc.boolean());
    case 'enum':
      return spoil(fc.constantFrom(...Object.values(def.entries as Record<string, string>)));
    case 'literal':
      return spoil(fc.constantFrom(...(def.values as unknown[])));
    case 'null':
      return fc.constant(null);
    case 'optional':
      return fc.oneof(fc.constant(undefined), inner(def.innerType));
    case 'nullable':
      return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: inner(def.innerType) });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fc.oneof(fc.constant(undefined), inner(def.innerType));
    case 'pipe':
      return inner(def.in);
    case 'array':
      return spoil(fc.array(inner(def.element), { maxLength: 3 }));
    case 'tuple':
      return spoil(fc.tuple(...(def.items as unknown[]).map(inner)));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case 'record':
      // A generated key may be an object whose own `toString` is a string (hostile keys include
      // 'toString'): String() throws on it, so fall back to its JSON.
      return spoil(fc.dictionary(inner(def.keyType).map(keyText), inner(def.valueType), { maxKeys: 3 }));
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const keys = Object.keys(shape);
      if (!keys.length) return fc.constant({});
      const entries = fc.record(Object.fromEntries(keys.map((k) => [k, inner(shape[k])])), { requiredKeys: [] });
      const extra = fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.dictionary(hostileString, hostileJson(1), { maxKeys: 2 }) });
      return fc.tuple(entries, extra).map(([known, more]) => Object.fromEntries([...Object.entries(more), ...Object.entries(known)].filter(([, v]) => v !== undefined)));
    }
    default:
      return hostileJson(2);
  }
}

/** A query string shaped by a schema's keys (values as text), with hostile ones now and then. */
export function queryFromSchema(schema: z.ZodType, pools: Pools): fc.Arbitrary<string> {
  return fromSchema(schema, pools).map((value) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return '';
    return Object.entries(value)
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((item) => `${encodeParam(k)}=${encodeParam(typeof item === 'string' ? item : JSON.stringify(item) ?? '')}`))
      .join('&');
  });
}

/** SPEC §7 list bodies: mostly valid paging, with hostile sort and filter names, operators and values. */
export function listBody(fieldNames: string[], pools: Pools): fc.Arbitrary<Record<string, unknown>> {
  const mostly = <T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: hostile });
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fieldNames) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS.slice(0, 6)) },
    { weight: 1, arbitrary: hostileString },
  );
  const text = mostly(fc.constantFrom(...pools.valid, ...pools.ids, 'fuzz', '2026-01-01T00:00:00Z', String(Date.now())), hostileString);
  const scalar = fc.oneof(text, mostly(fc.constantFrom(0, 1, 90, Date.now()), hostileNumber), fc.boolean());
  const value = fc.oneof(
    scalar,
    fc.array(scalar, { maxLength: 3 }),
    fc.record({ contains: text }),
    fc.record({ in: fc.array(scalar, { maxLength: 3 }) }),
    fc.record({ eq: scalar }),
    fc.record({ between: fc.tuple(scalar, scalar) }),
    hostileJson(2),
  );
  return fc.record(
    {
      pageNumber: mostly(fc.integer({ min: 1, max: 3 }), fc.oneof(hostileNumber, hostileString)),
      pageSize: mostly(fc.constantFrom(1, 25, 100), hostileNumber),
      sort: mostly(fc.record({ by: name, direction: fc.constantFrom('asc', 'desc') }), fc.oneof(hostileJson(1), fc.record({ by: name, direction: hostileString }))),
      filter: fc.dictionary(name, value, { maxKeys: 3 }),
      search: text,
    },
    { requiredKeys: [] },
  );
}

/** A query string: known and hostile keys, repeated keys, raw (possibly malformed) escapes. */
export function queryString(fieldNames: string[], pools: Pools): fc.Arbitrary<string> {
  const known = ['id', 'serverId', 'panel', 'from', 'to', 'step', 'percentage', 'os', 'page', 'pageSize', ...fieldNames];
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...known), hostileString), fc.oneof(hostileString, hostileNumber.map(String), fc.constantFrom(...pools.ids)));
  const encoded = fc.array(pair, { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${encodeParam(k)}=${encodeParam(v)}`).join('&'));
  const raw = fc.constantFrom('a=%', 'id=%E0%A4%A', '%00=%00', 'a[b][c]=1', 'a=1&a=2&a=3', '__proto__[x]=1', 'constructor[prototype][x]=1', '=', '&&&', 'id', 'from=1&to=0');
  return fc.oneof({ weight: 3, arbitrary: encoded }, { weight: 1, arbitrary: raw });
}

/** Percent-encoded as a client's UTF-8 encoder would, lone surrogates included (encodeURIComponent throws on those). */
export function encodeParam(value: string): string {
  return [...Buffer.from(value, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');
}

/** A path parameter: seeded ids (so the handler gets past "not found"), random uuids, hostile text. */
export function pathParam(pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...pools.ids, ...pools.valid) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: hostileString.filter((s) => s.length > 0) },
  );
}

/**
 * Another spelling of `url`'s path that names the same path (issue 25 §3): some of its letters
 * and digits percent-encoded (either hex case), some slashes doubled, a `.` or `x/..` segment
 * between the first segment and the next, and an `api`/`status` root in another case. The query
 * is kept as it is. At least one change is made.
 */
export function pathVariant(url: string): fc.Arbitrary<string> {
  const cut = url.indexOf('?');
  const path = cut === -1 ? url : url.slice(0, cut);
  const query = cut === -1 ? '' : url.slice(cut);
  // Letters and digits outside an existing %XX escape.
  const plain = [...path].map((c, i) => (/[A-Za-z0-9]/.test(c) && path[i - 1] !== '%' && path[i - 2] !== '%' ? i : -1)).filter((i) => i >= 0);
  const slashes = [...path].map((c, i) => (c === '/' ? i : -1)).filter((i) => i >= 0);
  const first = path.split('/')[1] ?? '';
  return fc
    .record({
      encode: fc.subarray(plain, { maxLength: Math.min(4, plain.length) }),
      lowerHex: fc.boolean(),
      double: fc.subarray(slashes, { maxLength: Math.min(2, slashes.length) }),
      dot: fc.constantFrom('', '/.', '/x/..', '/./.'),
      root: /^(api|status)$/.test(first) ? fc.constantFrom(first, first.toUpperCase(), first[0]!.toUpperCase() + first.slice(1)) : fc.constant(first),
    })
    .map(({ encode, lowerHex, double, dot, root }) => {
      if (!encode.length && !double.length && !dot && root === first && plain.length) encode = [plain[0]!];
      const chars = [...path].map((c, i) => {
        let out = encode.includes(i) ? `%${c.charCodeAt(0).toString(16)[lowerHex ? 'toLowerCase' : 'toUpperCase']()}` : c;
        if (double.includes(i)) out = `/${out}`;
        return out;
      });
      let variant = chars.join('');
      // The first segment is chars 1..first.length; its case and a dot segment after it.
      // A dot segment only between two segments: at the end it would make the path a directory (`/metrics/`).
      const head = `/${first}`;
      if (variant.startsWith(head)) variant = `/${root}${variant.length > head.length ? dot : ''}${variant.slice(head.length)}`;
      return variant + query;
    });
}
