import { vi } from 'vitest';
import type { CommandContext } from '../../commands/define-command';
import type { Registry } from '../../commands/registry';
import type { CommandSource } from '../../server/contract/command-history';
import type { Role } from '../../server/contract/permissions';
import { ApiError, type Api, type RequestOptions } from '../../src/api/client';
import { createDraftStore } from '../../src/lib/draft-store';
import type { TestApp } from '../api/harness';

/**
 * The web client's Api over app.inject instead of fetch; errors as the client throws them. A run's
 * headers go with each call and its answer's headers come back (`onResponse`), as in a browser:
 * the server records each write with the run's command and answers with the record's id.
 */
export function injectApi(t: TestApp, cookie?: string): Api {
  const send = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: unknown, options?: RequestOptions) => {
    // The query as the browser's client builds it (src/api/client.ts buildUrl).
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(options?.query ?? {})) if (v !== undefined) for (const item of Array.isArray(v) ? v : [v]) params.append(k, String(item));
    const qs = params.toString();
    const res = await t.call(method, `/api/${path}${qs ? `?${qs}` : ''}`, { cookie, body, headers: options?.headers });
    const headers = new Headers();
    for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
    options?.onResponse?.({ status: res.status, headers });
    if (res.status < 200 || res.status > 299) throw new ApiError(res.status, res.body ?? {});
    return res.body;
  };
  return {
    get: (path: string, options?: RequestOptions) => send('GET', path, undefined, options),
    post: (path: string, body?: unknown, options?: RequestOptions) => send('POST', path, body, options),
    patch: (path: string, body?: unknown, options?: RequestOptions) => send('PATCH', path, body, options),
    put: (path: string, body?: unknown, options?: RequestOptions) => send('PUT', path, body, options),
    delete: (path: string, options?: RequestOptions) => send('DELETE', path, undefined, options),
  } as unknown as Api;
}

/**
 * A CommandContext as the app's command host builds it, against a real app: the Api over
 * inject, browser storage and drafts in memory, `run` and `undo` wired to the registry.
 */
export function appContext(t: TestApp, registry: Registry, who: { _id: string; username: string; role: Role; cookie: string }, source: CommandSource = 'cmdline', confirm: () => boolean = () => true): CommandContext {
  const data = new Map<string, string>();
  const ctx: CommandContext = {
    api: injectApi(t, who.cookie),
    user: { _id: who._id, username: who.username, email: `${who.username}@x`, role: who.role },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => confirm()),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: (id, input) => registry.run(id, input, { source, ctx }),
    location: () => ({ pathname: '/', search: {} }),
    drafts: createDraftStore(),
    storage: { get: (k) => data.get(k) ?? null, set: (k, v) => void data.set(k, v) },
    lookup: (id) => registry.get(id),
    undo: {
      peek: () => registry.peekUndo(who._id),
      run: () => registry.undo(ctx, source),
    },
  };
  return ctx;
}
