import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../../commands/registry';
import { ApiError, type Api } from '../../src/api/client';
import { fakeServer } from './fake-server';

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0);
const WEB = fakeServer({ _id: '00000000-0000-4000-8000-000000000001', hostname: 'web-01', ipaddress: '10.0.0.1' });

/** Answers server look-ups for one server, like server/routes/resource.ts. */
function context() {
  const calls: string[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      calls.push(`GET ${path}`);
      if (path === `servers/${WEB._id}`) return { result: WEB };
      throw new ApiError(404, { message: 'Not found' });
    }),
    post: vi.fn(async (path: string, body?: any) => {
      calls.push(`POST ${path}`);
      const match = path === 'servers/all' && (body?.filter?.hostname?.eq === 'web-01' || String(body?.search ?? '').includes('web'));
      return { result: { data: match ? [WEB] : [], count: match ? 1 : 0 } };
    }),
    patch: vi.fn(),
    delete: vi.fn(),
  } as unknown as Api;
  const ctx: CommandContext = {
    api,
    user: { _id: 'u1', username: 'ann', email: 'ann@x', role: 'user' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
  return { ctx, calls };
}

describe('incident.report', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  const run = async (line: string) => {
    const registry = createAppRegistry();
    const { ctx, calls } = context();
    const { id, input } = parseCommandLine(line, (x) => registry.get(x));
    const result = await registry.dispatch(id, input, { source: 'cmdline', ctx });
    return { result, ctx, calls };
  };

  it('opens the report of the last 6 hours of all servers by default, without a history record', async () => {
    const { result, ctx, calls } = await run('incident.report');
    expect(ctx.navigate).toHaveBeenCalledWith('/incident-report?from=2026-11-23T06%3A00%3A00.000Z&to=2026-11-23T12%3A00%3A00.000Z');
    expect(result.message).toBe('Incident report for **all servers**, 2026-11-23 06:00 to 2026-11-23 12:00 UTC.');
    expect(calls).toEqual([]);
  });

  it('fixes relative and ISO ends when it runs and resolves the server by name', async () => {
    const { ctx } = await run('incident.report --from -90m --to now --server web-01');
    expect(ctx.navigate).toHaveBeenCalledWith(`/incident-report?from=2026-11-23T10%3A30%3A00.000Z&to=2026-11-23T12%3A00%3A00.000Z&server=${WEB._id}`);
    const iso = await run('incident.report --from 2026-11-20T09:00Z --to "2026-11-20 17:30"');
    expect(iso.ctx.navigate).toHaveBeenCalledWith('/incident-report?from=2026-11-20T09%3A00%3A00.000Z&to=2026-11-20T17%3A30%3A00.000Z');
  });

  it('refuses a window it cannot read, backwards or longer than 31 days, and an unknown server, before opening anything', async () => {
    for (const [line, message] of [
      ['incident.report --from yesterday', 'Cannot read "yesterday" as a start; use e.g. -6h, now or 2026-11-23T09:00Z'],
      ['incident.report --from now --to -1h', 'The end must be after the start.'],
      ['incident.report --from -40d', 'A range may span at most 31 days.'],
      ['incident.report --server nothing-like-it', 'No server matches "nothing-like-it"'],
    ] as const) {
      const registry = createAppRegistry();
      const { ctx } = context();
      const { id, input } = parseCommandLine(line, (x) => registry.get(x));
      const err = await registry.dispatch(id, input, { source: 'cmdline', ctx }).catch((e: unknown) => e);
      expect(err, line).toBeInstanceOf(CommandError);
      expect((err as Error).message, line).toBe(message);
      expect(ctx.navigate, line).not.toHaveBeenCalled();
    }
  });
});
