import { AUDIT_HEADERS } from '../server/contract/command-history';
import { standIn } from '../src/api/call';
import type { Api, HttpMethod, RequestOptions } from '../src/api/client';
import type { CommandContext } from './define-command';
import { argumentError } from './argument-error';
import { CommandError, type Registry } from './registry';
import { SECRET_KEYS } from './redact';
import { rerunnableLine } from './rerunnable-line';
import { isUuid } from '../server/contract/ids';

/** One HTTP call a command makes: what "Copy as curl" and `--print-api` print. */
export interface ApiCall {
  method: HttpMethod;
  /** From the site's root: `/api/alerts/…?x=1`. */
  path: string;
  body?: unknown;
  /** Body fields left out because they are secrets (a password): the person adds them. */
  leftOut?: string[];
}

export interface PrintedApi {
  command: string;
  /** The line the calls are recorded under (x-opsdeck-command-line), when the input re-runs as written. */
  commandLine: string | null;
  calls: ApiCall[];
}

/**
 * Whether a command offers "Copy as curl" (palette) and `--print-api` (command line): the ones
 * with an effect through the API. View-only and navigation commands (`history: false`) change
 * nothing a curl could repeat.
 */
export const offersPrintApi = (def: { history?: boolean }) => def.history !== false;

/** The command line's flag that prints a command's calls as curl instead of running it. */
export const PRINT_API_FLAG = '--print-api';

/** Calls that only read: SPEC's list queries are POSTs, and so are the previews. */
export function isReadCall(method: string, path: string): boolean {
  const bare = path.split('?')[0]!;
  return method === 'GET' || /\/(all|preview)$/.test(bare);
}

/** The id a created thing gets in a dry run: a call that uses it cannot be replayed as printed. */
export const CREATED_ID = '$CREATED_ID';

function withQuery(path: string, query?: RequestOptions['query']): string {
  const url = `/api/${path.replace(/^\/+/, '').replace(/^api\//, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) params.append(k, String(item));
    else params.append(k, String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

function withoutSecrets(body: unknown): { body: unknown; leftOut: string[] } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { body, leftOut: [] };
  const leftOut = Object.keys(body).filter((k) => SECRET_KEYS.test(k));
  if (!leftOut.length) return { body, leftOut };
  return { body: Object.fromEntries(Object.entries(body).filter(([k]) => !leftOut.includes(k))), leftOut };
}

/**
 * The commands' own API calls, found by running the command against an API that reads for real
 * and holds every write back (answering it as the server would, from what was read before). So
 * the printed calls are the ones the command makes, with names already resolved to ids, and no
 * command keeps a second description of its calls that could drift from what it does. The input
 * is checked, and the person's role, as a run would be; nothing is confirmed, recorded or changed.
 */
export async function printApi(registry: Registry, id: string, rawInput: unknown, outer: CommandContext): Promise<PrintedApi> {
  const calls: ApiCall[] = [];
  const read = new Map<string, unknown>();
  const answer = (method: HttpMethod, path: string, body: unknown): unknown => {
    const bare = withQuery(path).split('?')[0]!;
    // What the server answers a change with is the thing changed: start from the last read of it.
    let known: unknown;
    let longest = -1;
    for (const [p, v] of read) if ((bare === p || bare.startsWith(`${p}/`)) && p.length > longest) [known, longest] = [v, p.length];
    const before = known && typeof known === 'object' && 'result' in known && known.result && typeof known.result === 'object' && !Array.isArray(known.result) ? (known.result as Record<string, unknown>) : {};
    const sent = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const last = bare.split('/').at(-1) ?? '';
    const result = { ...before, ...sent, _id: before._id ?? (isUuid(last) || method !== 'POST' ? last : CREATED_ID) };
    return standIn({ result, data: result });
  };
  const call = async <T,>(method: HttpMethod, path: string, body: unknown, options: RequestOptions | undefined, real: () => Promise<T>): Promise<T> => {
    const full = withQuery(path, options?.query);
    if (isReadCall(method, full)) {
      const got = await real();
      if (method === 'GET') read.set(full.split('?')[0]!, got);
      return got;
    }
    const { body: shown, leftOut } = withoutSecrets(body);
    calls.push({ method, path: full, ...(body !== undefined ? { body: shown } : {}), ...(leftOut.length ? { leftOut } : {}) });
    return answer(method, path, body) as T;
  };
  const api: Api = {
    get: (path, options) => call('GET', path, undefined, options, () => outer.api.get(path, options)),
    post: (path, body, options) => call('POST', path, body, options, () => outer.api.post(path, body, options)),
    patch: (path, body, options) => call('PATCH', path, body, options, () => outer.api.patch(path, body, options)),
    put: (path, body, options) => call('PUT', path, body, options, () => outer.api.put(path, body, options)),
    delete: (path, options) => call('DELETE', path, undefined, options, () => outer.api.delete(path, options)),
  };

  const def = registry.get(id);
  if (!def) throw new CommandError(`Unknown command "${id}"`, 'refused');
  const dry = dryContext(outer, api, (nestedId, nestedInput) => runDry(nestedId, nestedInput));
  async function runDry(commandId: string, input: unknown) {
    const d = registry.get(commandId);
    if (!d) throw new CommandError(`Unknown command "${commandId}"`, 'refused');
    const parsed = d.input.safeParse(input ?? {});
    if (!parsed.success) throw new CommandError(`${d.title}: ${argumentError(d, parsed.error, input ?? {})}`, 'refused');
    const allowed = registry.check(commandId, dry);
    if (allowed !== true) throw new CommandError(allowed, 'refused');
    const prepared = d.prepare ? await d.prepare(parsed.data, dry) : undefined;
    return (await d.run(parsed.data, dry, prepared)) ?? {};
  }
  try {
    await runDry(id, rawInput);
  } catch (err) {
    // A command that goes on with what a held-back write would have answered may trip over the
    // stand-in answer; the calls up to there are still the ones it makes. Before any call, the
    // failure is the person's to see (a name that matches nothing, a refusal).
    if (!calls.length) throw err instanceof CommandError ? err : new CommandError(err instanceof Error ? err.message : String(err));
  }
  return { command: id, commandLine: rerunnableLine(def, rawInput), calls };
}

/** A context in which nothing outside the API is touched: no navigation, dialogs, storage or panels. */
function dryContext(outer: CommandContext, api: Api, run: CommandContext['run']): CommandContext {
  const overlay = <T,>(get: (key: string) => T | undefined) => {
    const changed = new Map<string, T | undefined>();
    return { get: (key: string) => (changed.has(key) ? changed.get(key) : get(key)), set: (key: string, value: T | undefined) => void changed.set(key, value) };
  };
  const storage = outer.storage ? overlay<string>((k) => outer.storage!.get(k) ?? undefined) : undefined;
  const drafts = outer.drafts ? overlay<unknown>((k) => outer.drafts!.get(k)) : undefined;
  return {
    ...outer,
    api,
    navigate: () => {},
    invalidate: async () => {},
    confirm: async () => true,
    ui: { colorMode: outer.ui.colorMode, setColorMode: () => {}, open: () => {} },
    session: { signedIn: () => {}, signedOut: () => {} },
    run,
    progress: undefined,
    download: undefined,
    undo: undefined,
    views: undefined,
    storage: storage && { get: (k) => storage.get(k) ?? null, set: (k, v) => storage.set(k, v) },
    drafts: drafts && { get: <T,>(k: string) => drafts.get(k) as T | undefined, set: (k, v) => drafts.set(k, v), subscribe: () => () => {} },
  };
}

/** Single-quoted for a POSIX shell. */
const sh = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/**
 * The calls as curl lines against `origin`, authenticated with a personal API token from
 * `$OPSDECK_TOKEN` and recorded in the history under the command (and its line).
 */
export function curlLines(printed: PrintedApi, origin: string): string {
  const base = origin.replace(/\/+$/, '');
  const line = printed.commandLine ? encodeURIComponent(printed.commandLine) : null;
  return printed.calls
    .map((c) => {
      const parts = [`curl -sS -X ${c.method} ${sh(base + c.path)}`, `-H "Authorization: Bearer $OPSDECK_TOKEN"`, `-H ${sh(`${AUDIT_HEADERS.command}: ${printed.command}`)}`];
      if (line && line.length <= 2000) parts.push(`-H ${sh(`${AUDIT_HEADERS.commandLine}: ${line}`)}`);
      if (c.body !== undefined) parts.push(`-H 'content-type: application/json'`, `--data ${sh(JSON.stringify(c.body))}`);
      const note = c.leftOut?.length ? `# left out, add to the body: ${c.leftOut.join(', ')}\n` : '';
      return note + parts.join(' \\\n  ');
    })
    .join('\n');
}

/** `… --print-api` on the command line: the line without the flag, and whether it was there. */
export function splitPrintApi(line: string): { line: string; printApi: boolean } {
  const flag = new RegExp(`(^|\\s)${PRINT_API_FLAG}(?=\\s|$)`);
  return flag.test(line) ? { line: line.replace(flag, '$1').trim(), printApi: true } : { line, printApi: false };
}
