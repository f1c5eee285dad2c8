import { AUDIT_HEADERS, MAX_COMMAND_LINE, type CommandSource } from '../server/contract/command-history';
import type { Api, RequestOptions } from '../src/api/client';
import type { AnyCommand } from './define-command';
import { rerunnableLine } from './rerunnable-line';

/**
 * How one run takes part in the server's audit trail (issue 11 §2). Every API call the run makes
 * carries the command, its re-runnable line, the source and a run id as headers; the server
 * joins them to its own record of each write, written with the change. The browser asserts no
 * outcome and writes no record: a run that made no write is not in History (issue 25 §3).
 */
export interface RunTrail {
  /** The context's API with the run's headers on every call. */
  api: Api;
  runId: string;
  /** The line, when the input re-runs exactly as written. */
  commandLine: string | null;
  /** Ids of the server records this run's calls produced (for undo and links to the record). */
  recordIds: string[];
}

/** A version-4 uuid; crypto.randomUUID is missing outside secure contexts (plain http on a LAN address). */
function newRunId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The line as a header value (Latin-1 only); null when it cannot be sent whole (too long, a NUL, a lone surrogate). */
function encodeLine(line: string): string | null {
  if (line.length > MAX_COMMAND_LINE || line.includes('\u0000')) return null;
  try {
    return encodeURIComponent(line);
  } catch {
    return null;
  }
}

export function startRunTrail(def: AnyCommand, rawInput: unknown, source: CommandSource, api: Api, undoOf?: string): RunTrail {
  const runId = newRunId();
  const commandLine = rerunnableLine(def, rawInput);
  const recordIds: string[] = [];
  const encoded = commandLine ? encodeLine(commandLine) : null;
  const headers: Record<string, string> = {
    [AUDIT_HEADERS.command]: def.id,
    [AUDIT_HEADERS.source]: source,
    [AUDIT_HEADERS.run]: runId,
    ...(encoded ? { [AUDIT_HEADERS.commandLine]: encoded } : {}),
    ...(undoOf ? { [AUDIT_HEADERS.undoOf]: undoOf } : {}),
  };
  const with_ = (options?: RequestOptions): RequestOptions => ({
    ...options,
    headers: { ...options?.headers, ...headers },
    onResponse: (res) => {
      const id = res.headers.get(AUDIT_HEADERS.record);
      if (id && !recordIds.includes(id)) recordIds.push(id);
      options?.onResponse?.(res);
    },
  });
  const wrapped: Api = {
    get: (path, options) => api.get(path, with_(options)),
    post: (path, body, options) => api.post(path, body, with_(options)),
    patch: (path, body, options) => api.patch(path, body, with_(options)),
    put: (path, body, options) => api.put(path, body, with_(options)),
    delete: (path, options) => api.delete(path, with_(options)),
  };
  return { api: wrapped, runId, commandLine: encoded ? commandLine : null, recordIds };
}
