// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/define-command';
import { defineCommand } from '../../../commands/define-command';
import { createRegistry } from '../../../commands/registry';
import type { Api } from '../../api/client';
import { createRecents } from '../../lib/recents';
import { EntityIndex } from './entity-index';
import { Palette, type PaletteProps } from './palette';

beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(cleanup);

/** Recents, aliases and marks in the palette (issue 13), on a registry of a few test commands. */
function setup(props: Partial<PaletteProps> = {}) {
  const registry = createRegistry();
  const simple = (id: string, title: string) => defineCommand({ id, title, category: 'Test', input: z.object({}), run: () => ({}) });
  registry.register(simple('test.restart-web', 'Restart web tier'));
  registry.register(simple('test.restart-db', 'Restart db tier'));
  registry.register(
    defineCommand({
      id: 'test.invite',
      title: 'Invite person',
      category: 'Test',
      input: z.object({ name: z.string(), role: z.enum(['admin', 'user']), buddy: z.string() }),
      args: [
        { name: 'name', label: 'Name', kind: 'text' },
        { name: 'role', label: 'Role', kind: 'enum', options: [{ value: 'admin', label: 'Admin' }, { value: 'user', label: 'User' }] },
        { name: 'buddy', label: 'Buddy', kind: 'entity', entity: 'user' },
      ],
      run: () => ({}),
    }),
  );
  const ctx = { api: {} as Api, user: { _id: 'u1', username: 'me', email: 'me@x', role: 'admin' }, ui: { open: vi.fn() } } as unknown as CommandContext;
  const index = new EntityIndex();
  index.add([{ kind: 'user', id: 'id-ann', title: 'ann', subtitle: 'ann@example.com', value: 'id-ann', completion: 'ann' }]);
  const onRun = vi.fn();
  render(<Palette registry={registry} ctx={ctx} index={index} fetchEntities={false} onRun={onRun} onClose={vi.fn()} {...props} />);
  return { onRun, index };
}

const store = () => {
  const data = new Map<string, string>();
  return { get: (k: string) => data.get(k) ?? null, set: (k: string, v: string) => void data.set(k, v) };
};
const input = () => screen.getByRole('combobox') as HTMLInputElement;
const type = (text: string) => fireEvent.change(document.activeElement ?? input(), { target: { value: text } });
const key = (k: string) => fireEvent.keyDown(document.activeElement ?? input(), { key: k });
const options = () => screen.getAllByRole('option').map((o) => o.textContent ?? '');

describe('palette recents and aliases', () => {
  it('the empty palette lists recent commands and entities first, most frecent first, even entities not fetched yet', () => {
    const recents = createRecents(store(), 'u1');
    recents.record('cmd:test.restart-db');
    recents.record('user:id-zed', { kind: 'user', id: 'id-zed', title: 'zed', subtitle: 'zed@example.com', value: 'id-zed', completion: 'zed' });
    recents.record('user:id-zed');
    setup({ recents });
    expect(options().slice(0, 2)).toEqual(['Recentzedzed@example.com', 'RecentRestart db tier']);
    // Not listed twice.
    expect(options().filter((o) => o.includes('Restart db tier'))).toHaveLength(1);
  });

  it('typing ranks what is used often and lately above equal matches', () => {
    const recents = createRecents(store(), 'u1');
    setup({ recents });
    type('restart');
    expect(options().slice(0, 2)).toEqual(['TestRestart db tier', 'TestRestart web tier']);
    cleanup();
    for (let i = 0; i < 3; i++) recents.record('cmd:test.restart-web');
    setup({ recents });
    type('restart');
    expect(options().slice(0, 2)).toEqual(['TestRestart web tier', 'TestRestart db tier']);
    // A better match still wins: the bonus reorders equals only.
    type('restart db');
    expect(options()[0]).toBe('TestRestart db tier');
  });

  it('an alias completes like a command and asks only what its line leaves out; recents count it', async () => {
    const recents = createRecents(store(), 'u1');
    const { onRun } = setup({ recents, aliases: [{ name: 'invadmin', line: 'test.invite --role admin' }] });
    type('invad');
    expect(options()[0]).toBe('Aliasinvadmintest.invite --role admin');
    key('Enter');
    expect(screen.getByText('(invadmin)')).toBeTruthy();
    type('Nia');
    key('Enter');
    type('ann');
    await screen.findByText('ann');
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('test.invite', { role: 'admin', name: 'Nia', buddy: 'id-ann' });
    expect(recents.top(5).map((r) => r.key)).toEqual(expect.arrayContaining(['alias:invadmin', 'user:id-ann']));
  });

  it('an alias whose line no longer parses is shown disabled with the reason', () => {
    setup({ aliases: [{ name: 'gone', line: 'test.vanished --x 1' }] });
    type('gone');
    const row = screen.getByRole('option', { name: /gone/ });
    expect(row.getAttribute('aria-disabled')).toBe('true');
    expect(row.textContent).toMatch(/Unknown command "test.vanished"/);
  });

  it('with rows marked, a command that takes them is not asked for its target and says how many', () => {
    const { onRun } = setup({ marked: { kind: 'user', items: [{ id: 'id-ann', label: 'ann' }, { id: 'id-bob', label: 'bob' }] } });
    type('invite');
    expect(options()[0]).toMatch(/Invite person→ 2 users marked/);
    key('Enter');
    expect(screen.getByText('2 users marked')).toBeTruthy();
    type('Nia');
    key('Enter');
    type('User');
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('test.invite', { name: 'Nia', role: 'user' });
  });
});
