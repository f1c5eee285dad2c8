import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/define-command';
import { defineCommand } from '../../../commands/define-command';
import { createRegistry } from '../../../commands/registry';
import type { Api } from '../../api/client';
import { commandItems, presetItems } from './palette-items';

const ctx: CommandContext = {
  api: {} as Api,
  user: { _id: '00000000-0000-4000-8000-000000000001', username: 'admin', email: 'admin@x', role: 'admin' },
  navigate: vi.fn(),
  invalidate: vi.fn(async () => {}),
  confirm: vi.fn(async () => true),
  ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
  session: { signedIn: vi.fn(), signedOut: vi.fn() },
  run: vi.fn(async () => ({})),
};

describe('the palette’s command rows', () => {
  it('list a command whose enabled or when check throws as unavailable with the reason, report each fault once, and keep every other row', () => {
    const report = vi.fn();
    const registry = createRegistry({ report });
    const boom = (message: string) => () => {
      throw new Error(message);
    };
    registry.register(defineCommand({ id: 'test.enabled-throws', title: 'Enabled throws', category: 'Test', input: z.object({}), enabled: boom('no state'), run: () => ({}) }));
    registry.register(defineCommand({ id: 'test.when-throws', title: 'When throws', category: 'Test', input: z.object({}), when: boom('no view'), run: () => ({}) }));
    registry.register(defineCommand({ id: 'test.hidden', title: 'Hidden', category: 'Test', input: z.object({}), when: () => false, run: () => ({}) }));
    registry.register(defineCommand({ id: 'test.fine', title: 'Fine', category: 'Test', input: z.object({}), run: () => ({}) }));
    // As the palette does on every keystroke.
    commandItems(registry, ctx);
    const rows = commandItems(registry, ctx).map((item) => [item.key, item.kind === 'command' ? item.allowed : null]);
    expect(rows).toEqual([
      ['cmd:test.enabled-throws', 'Enabled throws cannot tell whether it can run now (no state).'],
      ['cmd:test.when-throws', 'When throws cannot tell whether it can run now (no view).'],
      ['cmd:test.fine', true],
    ]);
    expect(report.mock.calls.map(([error, id]) => [id, (error as Error).message]).sort()).toEqual([
      ['test.enabled-throws', 'no state'],
      ['test.when-throws', 'no view'],
    ]);
  });

  it('leave out the rows of a command whose palette preset throws, report the fault once, and keep every other row', () => {
    const report = vi.fn();
    const registry = createRegistry({ report });
    const modes = (id: string, preset: () => Record<string, unknown> | null) =>
      defineCommand({
        id,
        title: id,
        category: 'Test',
        input: z.object({ server: z.string().optional(), mode: z.enum(['on', 'off']) }),
        args: [{ name: 'mode', label: 'Mode', kind: 'enum', options: [{ value: 'on', label: 'On' }, { value: 'off', label: 'Off' }] }],
        paletteOptions: { arg: 'mode', label: (o) => `${id} ${o.value}`, preset },
        run: () => ({}),
      });
    registry.register(
      modes('test.preset-throws', () => {
        throw new Error('no open server');
      }),
    );
    registry.register(modes('test.preset-fine', () => ({ server: 'web-01' })));
    // As the palette does on every keystroke.
    presetItems(registry, ctx);
    const rows = presetItems(registry, ctx).map((item) => [item.key, item.kind === 'preset' ? item.preset : null]);
    expect(rows).toEqual([
      ['preset:test.preset-fine:on', { server: 'web-01', mode: 'on' }],
      ['preset:test.preset-fine:off', { server: 'web-01', mode: 'off' }],
    ]);
    expect(report.mock.calls.map(([error, id, what]) => [id, (error as Error).message, what])).toEqual([['test.preset-throws', 'no open server', 'its palette preset']]);
  });
});
