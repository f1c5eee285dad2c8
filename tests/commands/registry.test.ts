import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { allCommands, createAppRegistry, type CommandId } from '../../commands';
import type { CommandContext } from '../../commands/define-command';
import { defineCommand } from '../../commands/define-command';
import { CommandError, createRegistry, redactInput } from '../../commands/registry';
import { can, whyNot, type Role } from '../../server/contract/permissions';
import type { Api } from '../../src/api/client';
import { commandExamples } from './examples';

/** An API that records every call and answers nothing useful: a command that calls it shows up. */
function spyApi() {
  const calls: { method: string; path: string; body?: unknown }[] = [];
  const fn = (method: string) =>
    vi.fn(async (path: string, body?: unknown) => {
      calls.push({ method, path, body });
      return { result: { data: [], count: 0 } } as never;
    });
  const api = { get: fn('GET'), post: fn('POST'), patch: fn('PATCH'), delete: fn('DELETE') } as unknown as Api;
  return { api, calls };
}

function context(role: Role | null, api: Api, confirm = true): CommandContext {
  return {
    api,
    user: role ? { _id: '00000000-0000-4000-8000-000000000001', username: role, email: `${role}@x`, role } : null,
    navigate: vi.fn(),
    invalidate: vi.fn(async () => {}),
    confirm: vi.fn(async () => confirm),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(async () => ({})),
  };
}

/** Input no command accepts: a wrong type for every field. */
const BAD_INPUT = 12345;

describe('every registered command', () => {
  it('has a unique id of the form domain.verb-noun', () => {
    const ids = allCommands.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z]+(-[a-z]+)*$/);
    expect(() => createAppRegistry()).not.toThrow();
  });

  it('has no two commands on one shortcut', () => {
    const seen = new Map<string, string>();
    for (const c of allCommands) {
      if (!c.shortcut) continue;
      expect(seen.get(c.shortcut), `${c.id} and ${seen.get(c.shortcut)} share ${c.shortcut}`).toBeUndefined();
      seen.set(c.shortcut, c.id);
    }
  });

  it('declares only arguments its input schema has', () => {
    for (const c of allCommands) {
      const shape = (c.input as z.ZodObject<any>).shape as Record<string, unknown>;
      for (const arg of c.args ?? []) expect(shape, `${c.id} --${arg.name}`).toHaveProperty(arg.name);
    }
  });

  it.each(allCommands.map((c) => [c.id]))('%s rejects bad input without calling the API', async (id) => {
    const { api, calls } = spyApi();
    const registry = createAppRegistry();
    await expect(registry.dispatch(id, BAD_INPUT, { source: 'api', ctx: context('admin', api) })).rejects.toBeInstanceOf(CommandError);
    // Only the history record of the refusal may be sent.
    expect(calls).toEqual([]);
  });

  it.each(allCommands.map((c) => [c.id]))('%s accepts its example input', (id) => {
    const def = createAppRegistry().get(id)!;
    const parsed = def.input.safeParse(commandExamples[id as CommandId]);
    expect(parsed.success, `${id}: ${parsed.error?.message}`).toBe(true);
  });

  it('declares a permission, unless it is one of the few that need no sign-in (the gate then has nothing to check)', () => {
    expect(allCommands.filter((c) => !c.permission).map((c) => c.id).sort()).toEqual(['cmdline.open', 'palette.open', 'session.signin', 'shortcuts.show', 'ui.toggle-dark-mode']);
  });

  it.each(allCommands.filter((c) => c.permission).map((c) => [c.id]))('%s reaches the permission check with its example input', async (id) => {
    const { api } = spyApi();
    const ctx = context('admin', api);
    // The gate reads the role only in its permission check, which comes after the parse: a read means the example got there.
    let roleReads = 0;
    const user = ctx.user!;
    ctx.user = Object.defineProperty({ ...user }, 'role', {
      get: () => {
        roleReads++;
        return user.role;
      },
    });
    const err = await createAppRegistry()
      .dispatch(id, commandExamples[id as CommandId], { source: 'api', ctx })
      .then(() => undefined, (e: unknown) => e);
    expect(roleReads, `${id}: ${err instanceof Error ? err.message : 'ran'}`).toBeGreaterThan(0);
    // Whatever stopped it afterwards (no such server in this empty API, a state predicate), it was not its input.
    if (err instanceof CommandError && err.outcome === 'refused') expect(err.message.startsWith(`${createAppRegistry().get(id)!.title}:`), err.message).toBe(false);
  });

  it.each(allCommands.filter((c) => c.permission).map((c) => [c.id, c.permission!]))('%s is refused by the permission check, with no API call, for a role without %s', async (id, permission) => {
    const roles: (Role | null)[] = ['user', 'sysadmin', null];
    for (const role of roles.filter((r) => !can(r, permission))) {
      const { api, calls } = spyApi();
      const registry = createAppRegistry();
      // A valid input, so the refusal can only come from the permission check (not a parse error).
      const err = await registry.dispatch(id, commandExamples[id as CommandId], { source: 'api', ctx: context(role, api) }).catch((e: unknown) => e);
      expect(err, `${id} as ${role}`).toBeInstanceOf(CommandError);
      expect((err as CommandError).outcome).toBe('refused');
      expect((err as CommandError).message).toBe(role ? whyNot(permission) : 'Sign in first.');
      expect(calls).toEqual([]);
    }
  });
});

describe('the run gate', () => {
  const make = () => {
    const run = vi.fn(async (input: any) => ({ message: `hi ${input.name}` }));
    const registry = createRegistry();
    registry.register(defineCommand({ id: 'test.greet', title: 'Greet', category: 'Test', input: z.object({ name: z.string(), password: z.string().optional() }), run }));
    registry.register(
      defineCommand({ id: 'test.off', title: 'Off', category: 'Test', input: z.object({}), enabled: () => 'The switch is off.', run }),
    );
    registry.register(defineCommand({ id: 'test.drop', title: 'Drop', category: 'Test', input: z.object({}), destructive: true, run }));
    return { registry, run };
  };

  it('throws on a duplicate id and the disposer unregisters', () => {
    const { registry } = make();
    const again = defineCommand({ id: 'test.greet', title: 'x', category: 'x', input: z.object({}), run: () => ({}) });
    expect(() => registry.register(again)).toThrow(/already registered/);
    const dispose = registry.register(defineCommand({ id: 'test.temp', title: 't', category: 't', input: z.object({}), run: () => ({}) }));
    expect(registry.get('test.temp')).toBeDefined();
    dispose();
    expect(registry.get('test.temp')).toBeUndefined();
  });

  it('runs a command that makes no API call without any call: History is written by the server only', async () => {
    const { registry } = make();
    const { api, calls } = spyApi();
    const result = await registry.run('test.greet', { name: 'ann', password: 'hunter2' }, { source: 'cmdline', ctx: context('user', api) });
    expect(result.message).toBe('hi ann');
    expect(result.records).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('survives an enabled check that throws: the command reads as unavailable with the reason, the fault is reported, nothing runs', async () => {
    const reported: [unknown, string][] = [];
    const registry = createRegistry({ report: (error, id) => void reported.push([error, id]) });
    const run = vi.fn(async () => ({}));
    registry.register(
      defineCommand({
        id: 'test.fragile',
        title: 'Fragile',
        category: 'Test',
        input: z.object({}),
        enabled: () => {
          throw new TypeError('boom');
        },
        run,
      }),
    );
    const { api, calls } = spyApi();
    expect(registry.check('test.fragile', context('admin', api))).toBe('Fragile cannot tell whether it can run now (boom).');
    await expect(registry.run('test.fragile', {}, { source: 'palette', ctx: context('admin', api) })).rejects.toMatchObject({ outcome: 'refused', message: 'Fragile cannot tell whether it can run now (boom).' });
    expect(run).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
    // Told once, though both the check and the run asked: the palette asks on every keystroke.
    expect(reported.map(([e, id]) => [(e as Error).message, id])).toEqual([['boom', 'test.fragile']]);
  });

  it('survives a when check that throws: the command is still listed, reads as unavailable with the reason, is reported once, and the others are untouched', async () => {
    const reported: [unknown, string][] = [];
    const registry = createRegistry({ report: (error, id) => void reported.push([error, id]) });
    const run = vi.fn(async () => ({}));
    registry.register(
      defineCommand({
        id: 'test.shaky',
        title: 'Shaky',
        category: 'Test',
        input: z.object({}),
        when: () => {
          throw new Error('no view');
        },
        run,
      }),
    );
    registry.register(defineCommand({ id: 'test.hidden', title: 'Hidden', category: 'Test', input: z.object({}), when: () => false, run }));
    registry.register(defineCommand({ id: 'test.fine', title: 'Fine', category: 'Test', input: z.object({}), run }));
    const { api, calls } = spyApi();
    const ctx = context('admin', api);
    expect(registry.list().filter((d) => registry.shown(d.id, ctx)).map((d) => d.id)).toEqual(['test.shaky', 'test.fine']);
    expect(registry.check('test.shaky', ctx)).toBe('Shaky cannot tell whether it can run now (no view).');
    expect(registry.check('test.hidden', ctx)).toBe(true);
    expect(registry.check('test.fine', ctx)).toBe(true);
    await expect(registry.run('test.shaky', {}, { source: 'palette', ctx })).rejects.toMatchObject({ outcome: 'refused', message: 'Shaky cannot tell whether it can run now (no view).' });
    expect(run).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
    expect(reported.map(([e, id]) => [(e as Error).message, id])).toEqual([['no view', 'test.shaky']]);
  });

  it('hands what prepare resolved to the confirmation and to run, looking it up once', async () => {
    const registry = createRegistry();
    const lookups: string[] = [];
    const seen: unknown[] = [];
    registry.register(
      defineCommand({
        id: 'test.remove',
        title: 'Remove',
        category: 'Test',
        input: z.object({ name: z.string() }),
        prepare: async ({ name }) => {
          lookups.push(name);
          return { id: `id-of-${name}`, label: name.toUpperCase() };
        },
        destructive: { title: 'Remove?', message: (input, found) => `Remove ${found.label} (${input.name})?`, target: (_input, found) => found.id },
        run: (input, _ctx, found) => {
          seen.push(found);
          return { message: `Removed ${found.label}`, data: found.id };
        },
      }),
    );
    const { api } = spyApi();
    const ctx = context('admin', api);
    const result = await registry.run('test.remove', { name: 'ann' }, { source: 'cmdline', ctx });
    expect(lookups).toEqual(['ann']);
    expect(ctx.confirm).toHaveBeenCalledWith({ title: 'Remove?', message: 'Remove ANN (ann)?', target: 'id-of-ann', confirmLabel: undefined, cancelLabel: undefined });
    expect(seen).toEqual([{ id: 'id-of-ann', label: 'ANN' }]);
    expect(result).toEqual({ message: 'Removed ANN', data: 'id-of-ann' });
  });

  it('types ctx.run by command id: a mistyped id or an input the command does not take does not compile', () => {
    const handOver = (ctx: CommandContext) => {
      // @ts-expect-error no command has this id
      void ctx.run('alerts.ack-matchin', {});
      // @ts-expect-error not a severity
      void ctx.run('alerts.ack-matching', { severity: 'bogus' });
      void ctx.run('alerts.ack-matching', { severity: 'critical' });
    };
    expect(handOver).toBeTypeOf('function');
  });

  it('refuses a disabled command with its reason and does not run it', async () => {
    const { registry, run } = make();
    const { api, calls } = spyApi();
    await expect(registry.run('test.off', {}, { source: 'palette', ctx: context('admin', api) })).rejects.toThrow('The switch is off.');
    expect(run).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('asks before a destructive command, and a declined one is cancelled with no call', async () => {
    const { registry, run } = make();
    const { api, calls } = spyApi();
    const err = (await registry.run('test.drop', {}, { source: 'ui', ctx: context('admin', api, false) }).catch((e: CommandError) => e)) as CommandError;
    expect(err.outcome).toBe('cancelled');
    expect(run).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('throws a failing command as an error with its message, and reports nothing to the API', async () => {
    const registry = createRegistry();
    registry.register(defineCommand({ id: 'test.fail', title: 'Fail', category: 'Test', input: z.object({}), run: () => Promise.reject(new Error('boom')) }));
    const { api, calls } = spyApi();
    await expect(registry.run('test.fail', {}, { source: 'ui', ctx: context('admin', api) })).rejects.toMatchObject({ outcome: 'error', message: 'boom' });
    expect(calls).toEqual([]);
  });

  it('makes its write before a slow list refetch finishes, and returns after it', async () => {
    const registry = createRegistry();
    registry.register(
      defineCommand({
        id: 'test.change',
        title: 'Change',
        category: 'Test',
        input: z.object({}),
        run: async (_input, ctx) => {
          await ctx.api.patch('things/1', { on: true });
          await ctx.invalidate(['things']);
          return { message: 'changed' };
        },
      }),
    );
    const { api, calls } = spyApi();
    let release!: () => void;
    const ctx = context('admin', api);
    ctx.invalidate = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    let settled = false;
    const running = registry.run('test.change', {}, { source: 'ui', ctx }).then((r) => ((settled = true), r));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toEqual(['things/1']));
    expect(ctx.invalidate).toHaveBeenCalledWith(['things']);
    expect(settled).toBe(false);
    release();
    await expect(running).resolves.toMatchObject({ message: 'changed' });
  });

  it('redacts secrets at any depth', () => {
    expect(redactInput({ a: { password: 'x', token: 'y', keep: 1 }, list: [{ secret: 's' }] })).toEqual({ a: { password: '••••', token: '••••', keep: 1 }, list: [{ secret: '••••' }] });
  });
});
