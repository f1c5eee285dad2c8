// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { CommandContext } from '../../../commands/define-command';
import { defineCommand } from '../../../commands/define-command';
import { createRegistry } from '../../../commands/registry';
import type { Role } from '../../../server/contract/permissions';
import type { Api } from '../../api/client';
import { EntityIndex } from './entity-index';
import { Palette } from './palette';

beforeAll(() => {
  // happy-dom lays nothing out; the virtual list needs a viewport height to render rows.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(cleanup);

function setup(role: Role) {
  const registry = createRegistry();
  registry.register(defineCommand({ id: 'test.wipe', title: 'Wipe everything', category: 'Test', input: z.object({}), permission: 'users.write', run: () => ({}) }));
  registry.register(defineCommand({ id: 'test.help', title: 'Show help', category: 'Test', input: z.object({}), shortcut: '?', run: () => ({}) }));
  registry.register(defineCommand({ id: 'test.nudge', title: 'Nudge tile', category: 'Test', input: z.object({}), screenKeys: { keys: 'alt+shift+arrow', where: 'on a focused tile' }, run: () => ({}) }));
  registry.register(
    defineCommand({
      id: 'test.invite',
      title: 'Invite person',
      category: 'Test',
      input: z.object({ name: z.string(), secret: z.string(), role: z.enum(['admin', 'user']), buddy: z.string() }),
      args: [
        { name: 'name', label: 'Name', kind: 'text' },
        { name: 'secret', label: 'Secret', kind: 'password' },
        { name: 'role', label: 'Role', kind: 'enum', options: [{ value: 'admin', label: 'Admin' }, { value: 'user', label: 'User' }] },
        { name: 'buddy', label: 'Buddy', kind: 'entity', entity: 'user' },
      ],
      run: () => ({}),
    }),
  );
  const ctx = {
    api: {} as Api,
    user: { _id: 'u1', username: 'me', email: 'me@x', role },
    navigate: vi.fn(),
    invalidate: vi.fn(),
    confirm: vi.fn(),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(),
  } as unknown as CommandContext;
  const index = new EntityIndex();
  index.add([
    { kind: 'user', id: 'id-ann', title: 'ann', subtitle: 'ann@example.com', value: 'id-ann', completion: 'ann' },
    { kind: 'user', id: 'id-bob', title: 'bob', subtitle: 'bob@example.com', value: 'id-bob', completion: 'bob' },
  ]);
  const onRun = vi.fn();
  render(<Palette registry={registry} ctx={ctx} index={index} fetchEntities={false} onRun={onRun} onClose={vi.fn()} />);
  return { onRun };
}

const input = () => screen.getByRole('combobox') as HTMLInputElement;
const type = (text: string) => fireEvent.change(document.activeElement ?? input(), { target: { value: text } });
const key = (k: string) => fireEvent.keyDown(document.activeElement ?? input(), { key: k });

describe('Palette', () => {
  it('labels a command with its declared key, or the keys a screen binds to it and where', async () => {
    setup('admin');
    type('help');
    const help = (await screen.findByText(/Show help/)).closest('[cmdk-item]')!;
    expect(help.querySelector('kbd')?.textContent).toBe('?');
    type('nudge');
    const nudge = (await screen.findByText(/Nudge tile/)).closest('[cmdk-item]')!;
    expect(nudge.querySelector('kbd')?.textContent).toBe('Alt+Shift+Arrow');
    expect(nudge.querySelector('kbd')?.getAttribute('title')).toBe('on a focused tile');
  });

  it('shows a forbidden command greyed with its reason and does not run it', async () => {
    const { onRun } = setup('user');
    type('wipe');
    const row = await screen.findByText(/Wipe everything/);
    expect(row.closest('[cmdk-item]')?.getAttribute('aria-disabled')).toBe('true');
    expect(row.textContent).toMatch(/Only Admin accounts can do this/);
    key('Enter');
    expect(onRun).not.toHaveBeenCalled();
  });

  it('ranks commands and entities together; choosing a user opens it with user.show', async () => {
    const { onRun } = setup('admin');
    type('ann');
    await screen.findByText('ann');
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('user.show', { user: 'id-ann' });
  });

  it('asks for each argument in turn: text, masked password, enum list, entity picker', async () => {
    const { onRun } = setup('admin');
    type('invite');
    await screen.findByText('Invite person');
    key('Enter');
    expect(screen.getByRole('combobox', { name: 'Invite person: Name' })).toBeTruthy();
    type('Ann Lee');
    key('Enter');
    const secret = screen.getByLabelText('Secret') as HTMLInputElement;
    expect(secret.type).toBe('password');
    act(() => secret.focus());
    type('hunter2');
    key('Enter');
    type('use');
    await screen.findByText('User');
    key('Enter');
    type('bo');
    await screen.findByText('bob');
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('test.invite', { name: 'Ann Lee', secret: 'hunter2', role: 'user', buddy: 'id-bob' });
  });
});
