import { describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { parseCommandLine } from '../../server/contract/parse-command-line';
import { CommandError } from '../../commands/registry';
import { newWidgetId } from '../../commands/widget/widget-store';
import type { Server } from '../../server/contract/servers';
import { ApiError, type Api } from '../../src/api/client';
import { parseWidgets, type PinnedWidget } from '../../src/lib/pinned-widgets';
import { fakeServer } from './fake-server';

const server = (n: number, hostname: string, extra: Partial<Server> = {}): Server =>
  fakeServer({ _id: `00000000-0000-4000-8000-00000000000${n}`, hostname, ipaddress: `10.0.0.${n}`, ...extra });
const FLEET = [server(1, 'web-01'), server(2, 'win-01', { operating_system: 'windows' }), server(3, 'new-01', { isAgentConfigured: false }), server(4, 'old-01', { status: 'suspended' })];

/** The two server calls resolveServer makes, over FLEET. */
function fakeApi(): Api {
  return {
    get: vi.fn(async (path: string) => {
      const found = FLEET.find((s) => path === `servers/${s._id}`);
      if (found) return { result: found };
      throw new ApiError(404, { message: 'Not found' });
    }),
    post: vi.fn(async (path: string, body?: any) => {
      if (path !== 'servers/all') return { result: {} };
      const f = body?.filter ?? {};
      const q = String(body?.search ?? '').toLowerCase();
      const rows = FLEET.filter((s) => (f.hostname?.eq === undefined || s.hostname === f.hostname.eq) && (f.ipaddress?.eq === undefined || s.ipaddress === f.ipaddress.eq) && (!q || s.hostname.includes(q)));
      return { result: { data: rows, count: rows.length } };
    }),
    patch: vi.fn(),
    delete: vi.fn(),
  } as unknown as Api;
}

function context(options: { storage?: boolean; confirm?: boolean } = {}) {
  const data = new Map<string, string>();
  const ctx: CommandContext = {
    api: fakeApi(),
    user: { _id: 'u', username: 'ann', email: 'ann@x', role: 'user' },
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => options.confirm ?? true),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(),
    ...(options.storage === false ? {} : { storage: { get: (k) => data.get(k) ?? null, set: (k, v) => void data.set(k, v) } }),
  };
  return { ctx, widgets: () => parseWidgets(data.get('widgets') ?? null), raw: () => data.get('widgets') };
}

const registry = createAppRegistry();
const run = (ctx: CommandContext, id: string, input: unknown) => registry.dispatch(id, input, { source: 'cmdline', ctx });
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as CommandError);

describe('widget.pin', () => {
  it('stores a 5×5 widget at the bottom with the panel’s title, 30 s refresh by default', async () => {
    const { ctx, widgets } = context();
    await run(ctx, 'widget.pin', { server: 'web-01', type: 'cpu', panel: 77 });
    await run(ctx, 'widget.pin', { server: 'web-01', type: 'memory', panel: 'ram used', refresh: '10m' });
    const [a, b] = widgets();
    expect(a).toMatchObject({ server: FLEET[0]!._id, type: 'cpu', title: 'CPU Basic', panelId: 77, refreshInterval: 30_000, x: 0, y: 0, w: 5, h: 5 });
    expect(b).toMatchObject({ type: 'memory', title: 'RAM Used', panelId: 16, refreshInterval: 600_000, x: 0, y: 5, w: 5, h: 5 });
    expect(a!.i).not.toBe(b!.i);
  });

  it('offers the panels of the server’s OS and type, and lists them when the panel is not one', async () => {
    const { ctx, raw } = context();
    await run(ctx, 'widget.pin', { server: 'win-01', type: 'network', panel: '11', title: 'Uplink' });
    const err = await failure(run(ctx, 'widget.pin', { server: 'web-01', type: 'disk', panel: 77 }));
    expect(err?.message).toMatch(/^No Disk widget "77" for Linux\. Choose one of: 154 Root FS Used, 23 RootFS Total/);
    expect(parseWidgets(raw()!)).toHaveLength(1);
    expect(parseWidgets(raw()!)[0]).toMatchObject({ title: 'Uplink', panelId: 11 });
  });

  it('names a missing or wrong argument in words with its choices (issue 13: "panel: Invalid input")', async () => {
    const { ctx, raw } = context();
    const line = (text: string) => {
      const parsed = parseCommandLine(text, registry.get);
      return failure(run(ctx, parsed.id, parsed.input));
    };
    expect((await line('widget.pin web-01 memory'))?.message).toMatch(/^Pin widget: Widget is required\. Choose one of: .*16 \(RAM Used\), /);
    expect((await line('widget.pin web-01 ram "RAM Used"'))?.message).toMatch(/^Pin widget: Widget Type: “ram” is not one of the choices\. Choose one of: .*memory/);
    expect(raw()).toBeUndefined();
  });

  it('refuses servers the drawer would not list: no agent, suspended, unknown', async () => {
    const { ctx, raw } = context();
    expect((await failure(run(ctx, 'widget.pin', { server: 'new-01', type: 'cpu', panel: 77 })))?.message).toMatch(/no configured agent/);
    expect((await failure(run(ctx, 'widget.pin', { server: 'old-01', type: 'cpu', panel: 77 })))?.message).toMatch(/suspended/);
    expect((await failure(run(ctx, 'widget.pin', { server: 'nope', type: 'cpu', panel: 77 })))?.message).toBe('No server matches "nope"');
    expect(raw()).toBeUndefined();
  });

  it('needs the browser storage and says so', async () => {
    const { ctx } = context({ storage: false });
    const err = await failure(run(ctx, 'widget.pin', { server: 'web-01', type: 'cpu', panel: 77 }));
    expect(err?.outcome).toBe('refused');
    expect(err?.message).toMatch(/kept in the browser/);
  });

  it('keeps valid widgets when the stored value holds junk', async () => {
    const { ctx, widgets } = context();
    ctx.storage!.set('widgets', JSON.stringify([{ nonsense: true }, 3]));
    await run(ctx, 'widget.pin', { server: 'web-01', type: 'cpu', panel: 20 });
    expect(widgets().map((w) => w.title)).toEqual(['CPU Busy']);
  });
});

describe('widget.remove, widget.edit, widget.reset-layout', () => {
  async function pinned() {
    const c = context();
    await run(c.ctx, 'widget.pin', { server: 'web-01', type: 'cpu', panel: 77 });
    await run(c.ctx, 'widget.pin', { server: 'web-01', type: 'cpu', panel: 20 });
    await run(c.ctx, 'widget.pin', { server: 'win-01', type: 'cpu', panel: 4, title: 'CPU Busy' });
    return c;
  }

  it('removes by key or by a title only one widget has, and refuses a shared title', async () => {
    const { ctx, widgets } = await pinned();
    await run(ctx, 'widget.remove', { widget: 'cpu basic' });
    expect(widgets().map((w) => w.title)).toEqual(['CPU Busy', 'CPU Busy']);
    const err = await failure(run(ctx, 'widget.remove', { widget: 'CPU Busy' }));
    expect(err?.message).toMatch(/^2 widgets are called "CPU Busy"/);
    expect(widgets()).toHaveLength(2);
    await run(ctx, 'widget.remove', { widget: widgets()[1]!.i });
    expect(widgets().map((w) => w.panelId)).toEqual([20]);
    expect((await failure(run(ctx, 'widget.remove', { widget: 'nothing' })))?.message).toMatch(/^No pinned widget is called "nothing"/);
  });

  it('edits the title and the refresh interval, and nothing else', async () => {
    const { ctx, widgets } = await pinned();
    const before = widgets()[0]!;
    await run(ctx, 'widget.edit', { widget: before.i, title: 'Web CPU', refresh: '1m' });
    expect(widgets()[0]).toEqual({ ...before, title: 'Web CPU', refreshInterval: 60_000 });
    expect((await failure(run(ctx, 'widget.edit', { widget: before.i })))?.message).toMatch(/--title or a --refresh/);
    expect((await failure(run(ctx, 'widget.edit', { widget: before.i, refresh: '15s' })))?.outcome).toBe('refused');
  });

  it('resets every widget to 5×5 side by side after asking, and leaves them when declined', async () => {
    const { ctx, widgets } = await pinned();
    const moved = widgets().map((w, n) => ({ ...w, x: n, y: 30 - n * 10, w: 2, h: 9 }));
    ctx.storage!.set('widgets', JSON.stringify(moved));
    const declined = { ...ctx, confirm: vi.fn(async () => false) };
    expect((await failure(run(declined, 'widget.reset-layout', {})))?.outcome).toBe('cancelled');
    expect(widgets()).toEqual(moved);
    await run(ctx, 'widget.reset-layout', {});
    expect(ctx.confirm).toHaveBeenCalled();
    expect(widgets().map(({ title, x, y, w, h }) => [title, x, y, w, h])).toEqual([
      ['CPU Busy', 0, 0, 5, 5],
      ['CPU Busy', 5, 0, 5, 5],
      ['CPU Basic', 0, 5, 5, 5],
    ]);
  });
});

describe('widget.move, widget.resize', () => {
  /** Two widgets side by side: "Left" 5×5 at (0, 0), "Right" 4×6 at (5, 2). */
  function placed() {
    const c = context();
    const base = { server: FLEET[0]!._id, type: 'cpu', panelId: 77, refreshInterval: 30_000 };
    c.ctx.storage!.set(
      'widgets',
      JSON.stringify([
        { ...base, title: 'Left', x: 0, y: 0, w: 5, h: 5, i: 'a' },
        { ...base, title: 'Right', x: 5, y: 2, w: 4, h: 6, i: 'b' },
      ]),
    );
    return c;
  }
  const boxes = (list: PinnedWidget[]) => list.map(({ i, x, y, w, h }) => [i, x, y, w, h]);

  it('moves one widget by title or key, one axis or both, and says where to', async () => {
    const { ctx, widgets } = placed();
    const result = await run(ctx, 'widget.move', { widget: 'right', x: 8 });
    expect(result.message).toBe('Moved **Right** to column 8, row 2.');
    expect(boxes(widgets())).toEqual([
      ['a', 0, 0, 5, 5],
      ['b', 8, 2, 4, 6],
    ]);
    await run(ctx, 'widget.move', { widget: 'a', x: 7, y: 9 });
    await run(ctx, 'widget.move', { widget: 'Right', y: 0 });
    expect(boxes(widgets())).toEqual([
      ['a', 7, 9, 5, 5],
      ['b', 8, 0, 4, 6],
    ]);
    expect(widgets()[0]).toMatchObject({ title: 'Left', panelId: 77, refreshInterval: 30_000 });
  });

  it('refuses a place off the 12 columns or above the top, and changes nothing', async () => {
    const { ctx, raw } = placed();
    const before = raw();
    // Right is 4 wide: column 8 is its last.
    expect((await failure(run(ctx, 'widget.move', { widget: 'Right', x: 9 })))?.message).toBe('x must be between 0 and 8: **Right** is 4 columns wide in a grid of 12.');
    expect((await failure(run(ctx, 'widget.move', { widget: 'Right', x: -1, y: 0 })))?.message).toMatch(/^x must be between 0 and 8/);
    expect((await failure(run(ctx, 'widget.move', { widget: 'Left', y: -1 })))?.message).toBe('y must be 0 or more: row 0 is the top of the grid.');
    expect((await failure(run(ctx, 'widget.move', { widget: 'Left', x: 1.5 })))?.outcome).toBe('refused');
    expect((await failure(run(ctx, 'widget.move', { widget: 'Left', x: 'two' })))?.message).toMatch(/Column \(0 is the left edge\) must be a whole number of grid cells/);
    expect((await failure(run(ctx, 'widget.move', { widget: 'Left' })))?.message).toBe('Give an --x or a --y to move to.');
    expect((await failure(run(ctx, 'widget.move', { widget: 'Middle', x: 1 })))?.message).toMatch(/^No pinned widget is called "Middle"/);
    expect(raw()).toBe(before);
  });

  it('resizes one widget, width or height or both, and says to what', async () => {
    const { ctx, widgets } = placed();
    const result = await run(ctx, 'widget.resize', { widget: 'Right', w: 7 });
    expect(result.message).toBe('Resized **Right** to 7 columns by 6 rows.');
    await run(ctx, 'widget.resize', { widget: 'a', w: 2, h: 3 });
    await run(ctx, 'widget.resize', { widget: 'Left', h: 40 });
    expect(boxes(widgets())).toEqual([
      ['a', 0, 0, 2, 40],
      ['b', 5, 2, 7, 6],
    ]);
  });

  it('refuses a size under the grid’s 2×3 or past the right edge, and changes nothing', async () => {
    const { ctx, raw } = placed();
    const before = raw();
    // Right starts at column 5: 7 columns reach the edge.
    expect((await failure(run(ctx, 'widget.resize', { widget: 'Right', w: 8 })))?.message).toBe('w must be between 2 and 7: **Right** starts at column 5 of 12.');
    expect((await failure(run(ctx, 'widget.resize', { widget: 'Left', w: 1 })))?.message).toMatch(/^w must be between 2 and 12/);
    expect((await failure(run(ctx, 'widget.resize', { widget: 'Left', h: 2 })))?.message).toBe('h must be 3 or more: a widget is at least 3 rows tall.');
    // One bad value refuses the whole change, the good one included.
    expect((await failure(run(ctx, 'widget.resize', { widget: 'Left', w: 6, h: 0 })))?.message).toMatch(/^h must be 3 or more/);
    expect((await failure(run(ctx, 'widget.resize', { widget: 'Left' })))?.message).toBe('Give a --w or an --h to resize to.');
    expect(raw()).toBe(before);
  });

  it('take their numbers from the command line', async () => {
    const { ctx, widgets } = placed();
    const line = (text: string) => {
      const parsed = parseCommandLine(text, (id) => registry.get(id));
      return run(ctx, parsed.id, parsed.input);
    };
    await line('widget.move Right --x 0 --y 7');
    await line('widget.resize Left --w 12');
    expect(boxes(widgets())).toEqual([
      ['a', 0, 0, 12, 5],
      ['b', 0, 7, 4, 6],
    ]);
  });

  it('need the browser storage', async () => {
    const { ctx } = context({ storage: false });
    expect((await failure(run(ctx, 'widget.move', { widget: 'a', x: 1 })))?.outcome).toBe('refused');
    expect((await failure(run(ctx, 'widget.resize', { widget: 'a', w: 3 })))?.message).toMatch(/kept in the browser/);
  });
});

it('makes distinct widget keys', () => {
  expect(newWidgetId(1, () => 0)).toBe('w-1-000000');
  const ids = new Set(Array.from({ length: 200 }, () => newWidgetId()));
  expect(ids.size).toBe(200);
});

