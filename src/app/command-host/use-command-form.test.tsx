// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../../commands';
import { ServerFieldError } from '../../../commands/server/server-fields';
import { CommandError } from '../../../commands/registry';
import { ApiError } from '../../api/client';
import { CommandRunnerContext, type CommandRunner } from './run-command';
import { changedInput, useCommandForm, type CommandFormOptions } from './use-command-form';

afterEach(cleanup);
const registry = createAppRegistry();

interface Values {
  hostname: string;
  ipaddress: string;
  os: 'linux' | 'windows' | null;
}
const filled: Values = { hostname: 'web-01', ipaddress: '10.0.0.1', os: 'linux' };
const toInput = (v: Values) => ({ hostname: v.hostname, ipaddress: v.ipaddress, os: v.os ?? undefined });

function Form({ id, options }: { id: 'server.create' | 'server.edit'; options: Omit<CommandFormOptions<'server.create', Values, keyof Values>, 'toInput'> }) {
  const form = useCommandForm(id, { toInput, ...options } as CommandFormOptions<typeof id, Values, keyof Values>);
  if (!form.values) return <p>Loading</p>;
  return (
    <form onSubmit={form.submit} noValidate>
      {(['hostname', 'ipaddress'] as const).map((k) => (
        <label key={k}>
          {k}
          <input aria-label={k} value={form.values![k]} onChange={(e) => form.set(k, e.target.value)} />
          {form.errors[k] && <span data-testid={`error-${k}`}>{form.errors[k]}</span>}
        </label>
      ))}
      {form.errors.os && <span data-testid="error-os">{form.errors.os}</span>}
      {form.formError && <p role="alert">{form.formError}</p>}
      <span data-testid="state">{`${form.busy ? 'busy' : 'idle'} ${form.done ? 'done' : 'open'} ${form.dirty ? 'dirty' : 'clean'}`}</span>
      <button type="submit">Save</button>
    </form>
  );
}

function renderForm(ui: React.ReactNode, runOrThrow: CommandRunner['runOrThrow']) {
  const runner: CommandRunner = { run: vi.fn(), runOrThrow, check: () => true, get: (id) => registry.get(id) };
  return render(<CommandRunnerContext.Provider value={runner}>{ui}</CommandRunnerContext.Provider>);
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  });
};

describe('useCommandForm', () => {
  it('checks the values with the command’s own schema and puts each issue beside its field, running nothing', async () => {
    const runOrThrow = vi.fn();
    renderForm(<Form id="server.create" options={{ initial: { hostname: '', ipaddress: 'nope', os: null }, onDone: vi.fn(), message: (f, m) => (f === 'os' ? 'Choose the operating system' : m) }} />, runOrThrow);
    await save();
    expect(runOrThrow).not.toHaveBeenCalled();
    expect(screen.getByTestId('error-hostname').textContent).toMatch(/hostname/i);
    expect(screen.getByTestId('error-ipaddress').textContent).toMatch(/ip/i);
    expect(screen.getByTestId('error-os').textContent).toBe('Choose the operating system');
    // Typing in a field clears its message only.
    type('hostname', 'web-01');
    expect(screen.queryByTestId('error-hostname')).toBeNull();
    expect(screen.getByTestId('error-ipaddress')).toBeTruthy();
  });

  it('the form’s own checks win over the schema’s for the same field', async () => {
    const runOrThrow = vi.fn();
    renderForm(<Form id="server.create" options={{ initial: { ...filled, hostname: '' }, onDone: vi.fn(), validate: (v) => (v.hostname ? {} : { hostname: 'Give a hostname' }) }} />, runOrThrow);
    await save();
    expect(screen.getByTestId('error-hostname').textContent).toBe('Give a hostname');
    expect(runOrThrow).not.toHaveBeenCalled();
  });

  it('runs the command through the runner with every value, busy until it ends, then done and no longer dirty', async () => {
    let finish!: (r: { message: string }) => void;
    const runOrThrow = vi.fn(() => new Promise((resolve) => (finish = resolve)));
    const onDone = vi.fn();
    renderForm(<Form id="server.create" options={{ initial: { hostname: '', ipaddress: '', os: 'linux' }, onDone }} />, runOrThrow as unknown as CommandRunner['runOrThrow']);
    type('hostname', 'web-02');
    type('ipaddress', '10.0.0.2');
    expect(screen.getByTestId('state').textContent).toBe('idle open dirty');
    await save();
    expect(runOrThrow).toHaveBeenCalledWith('server.create', { hostname: 'web-02', ipaddress: '10.0.0.2', os: 'linux' });
    expect(screen.getByTestId('state').textContent).toBe('busy open dirty');
    // A second submit while the first runs does nothing.
    await save();
    expect(runOrThrow).toHaveBeenCalledTimes(1);
    await act(async () => finish({ message: 'ok' }));
    expect(onDone).toHaveBeenCalledWith({ message: 'ok' }, { hostname: 'web-02', ipaddress: '10.0.0.2', os: 'linux' }, { hostname: 'web-02', ipaddress: '10.0.0.2', os: 'linux' });
    expect(screen.getByTestId('state').textContent).toBe('idle done clean');
  });

  it('an edit sends the record’s key and only what changed; with no change it runs nothing and reports null', async () => {
    const runOrThrow = vi.fn(async () => ({ message: 'Updated' }));
    const onDone = vi.fn();
    renderForm(<Form id="server.edit" options={{ initial: filled, fixed: { server: 's1' }, send: 'changed', onDone }} />, runOrThrow);
    await save();
    expect(runOrThrow).not.toHaveBeenCalled();
    expect(onDone).toHaveBeenCalledWith(null, { server: 's1', ...toInput(filled) }, filled);
    // Only spaces added is no change: the values are compared as the schema reads them.
    type('hostname', ' web-01 ');
    await save();
    expect(runOrThrow).not.toHaveBeenCalled();
    type('ipaddress', '10.0.0.9 ');
    await save();
    // What is sent is the schema's output: trimmed.
    expect(runOrThrow).toHaveBeenCalledWith('server.edit', { server: 's1', ipaddress: '10.0.0.9' });
  });

  it('words a schema issue as the gate does unless the form words it', async () => {
    renderForm(<Form id="server.create" options={{ initial: { ...filled, hostname: '' }, onDone: vi.fn() }} />, vi.fn());
    await save();
    expect(screen.getByTestId('error-hostname').textContent).toBe('Hostname is required.');
  });

  it('fills in when the record arrives after the form opened', async () => {
    const runOrThrow = vi.fn();
    const { rerender } = renderForm(<Form id="server.edit" options={{ initial: null, onDone: vi.fn() }} />, runOrThrow);
    expect(screen.getByText('Loading')).toBeTruthy();
    const runner: CommandRunner = { run: vi.fn(), runOrThrow, check: () => true, get: (id) => registry.get(id) };
    rerender(
      <CommandRunnerContext.Provider value={runner}>
        <Form id="server.edit" options={{ initial: filled, onDone: vi.fn() }} />
      </CommandRunnerContext.Provider>,
    );
    expect((screen.getByLabelText('hostname') as HTMLInputElement).value).toBe('web-01');
    expect(screen.getByTestId('state').textContent).toBe('idle open clean');
  });

  it('a refusal naming a field goes beside it (the API’s "field: " prefix dropped); others above the buttons; a declined confirmation says nothing', async () => {
    const failures: unknown[] = [
      new ServerFieldError('IP address 10.0.0.1 is already used', 'ipaddress'),
      new ApiError(400, { message: 'hostname: must be shorter', field: 'hostname' }),
      new CommandError('Network down'),
      new CommandError('Cancelled', 'cancelled'),
    ];
    const runOrThrow = vi.fn(async () => {
      throw failures.shift();
    });
    renderForm(<Form id="server.create" options={{ initial: filled, onDone: vi.fn() }} />, runOrThrow);
    await save();
    expect(screen.getByTestId('error-ipaddress').textContent).toBe('IP address 10.0.0.1 is already used');
    await save();
    expect(screen.getByTestId('error-hostname').textContent).toBe('must be shorter');
    expect(screen.queryByTestId('error-ipaddress')).toBeNull();
    await save();
    expect(screen.getByRole('alert').textContent).toBe('Network down');
    await save();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('state').textContent).toBe('idle open clean');
  });

  it('maps the API’s field names to the form’s with `field`', async () => {
    const runOrThrow = vi.fn(async () => {
      throw new ApiError(409, { message: 'taken', field: 'operating_system' });
    });
    renderForm(<Form id="server.create" options={{ initial: filled, onDone: vi.fn(), field: (n) => (n === 'operating_system' ? 'os' : (n as keyof Values)) }} />, runOrThrow);
    await save();
    expect(screen.getByTestId('error-os').textContent).toBe('taken');
  });
});

describe('useCommandForm onFailure', () => {
  it('is told the text of each failure the form shows, and not of a declined confirmation', async () => {
    const failures: unknown[] = [new CommandError('Network down'), new ServerFieldError('IP address 10.0.0.1 is already used', 'ipaddress'), new CommandError('Cancelled', 'cancelled')];
    const runOrThrow = vi.fn(async () => {
      throw failures.shift();
    });
    const onFailure = vi.fn();
    renderForm(<Form id="server.create" options={{ initial: filled, onDone: vi.fn(), onFailure }} />, runOrThrow);
    await save();
    expect(screen.getByRole('alert').textContent).toBe('Network down');
    await save();
    await save();
    expect(onFailure.mock.calls.map(([text]) => text)).toEqual(['Network down', 'IP address 10.0.0.1 is already used']);
  });
});

describe('useCommandForm with several commands', () => {
  type Row = 'username' | 'email';
  const commandOf = { username: 'user.rename', email: 'user.set-email' } as const;
  function RowForm({ onDone }: { onDone: () => void }) {
    const form = useCommandForm<(typeof commandOf)[Row], Record<Row, string>, never>('user.rename', {
      initial: { username: 'ada', email: 'ada@example.com' },
      toInput: (v, command) => (command === 'user.set-email' ? { email: v.email } : { username: v.username }),
      fixed: { user: 'u1' },
      field: () => undefined,
      onDone,
    });
    return (
      <>
        <input aria-label="email" value={form.values!.email} onChange={(e) => form.set('email', e.target.value)} />
        {(['username', 'email'] as const).map((row) => (
          <button key={row} onClick={() => void form.submit(undefined, { command: commandOf[row] })}>{`Save ${row}`}</button>
        ))}
        <button onClick={() => void form.submit(undefined, { command: 'user.set-email', values: { username: 'ada', email: 'grace@example.com' } })}>Save given</button>
      </>
    );
  }
  const press = (name: string) => act(async () => void fireEvent.click(screen.getByRole('button', { name })));

  it('runs the command named at submit with the input toInput gives for it, from the values or those given', async () => {
    const runOrThrow = vi.fn(async () => ({ message: 'Updated' }));
    const onDone = vi.fn();
    renderForm(<RowForm onDone={onDone} />, runOrThrow);
    type('email', ' ada@example.org ');
    await press('Save email');
    expect(runOrThrow).toHaveBeenLastCalledWith('user.set-email', { user: 'u1', email: 'ada@example.org' });
    await press('Save username');
    expect(runOrThrow).toHaveBeenLastCalledWith('user.rename', { user: 'u1', username: 'ada' });
    await press('Save given');
    expect(runOrThrow).toHaveBeenLastCalledWith('user.set-email', { user: 'u1', email: 'grace@example.com' });
    expect(onDone).toHaveBeenCalledTimes(3);
  });

  it('with no field for a schema issue, leaves the refusal to the gate, whose words show above the buttons', async () => {
    const runOrThrow = vi.fn(async () => {
      throw new CommandError('Set user email: Email must be at most 500 characters.', 'refused');
    });
    const onFailure = vi.fn();
    function Long() {
      const form = useCommandForm<'user.set-email', { email: string }, never>('user.set-email', { initial: { email: 'x'.repeat(501) }, toInput: (v) => v, fixed: { user: 'u1' }, field: () => undefined, onDone: vi.fn(), onFailure });
      return (
        <>
          <button onClick={() => void form.submit()}>Save</button>
          {form.formError && <p role="alert">{form.formError}</p>}
        </>
      );
    }
    renderForm(<Long />, runOrThrow);
    await save();
    expect(runOrThrow).toHaveBeenCalledWith('user.set-email', { user: 'u1', email: 'x'.repeat(501) });
    expect(screen.getByRole('alert').textContent).toBe('Set user email: Email must be at most 500 characters.');
    expect(onFailure).toHaveBeenCalledWith('Set user email: Email must be at most 500 characters.', expect.any(CommandError));
  });
});

describe('changedInput', () => {
  it('keeps the keys whose value differs, compared deeply; absent ones are never sent', () => {
    expect(changedInput({ a: 1, b: [1, 2], c: undefined, d: 'x' }, { a: 1, b: [1, 3], c: 5, d: 'y' })).toEqual({ b: [1, 2], d: 'x' });
    expect(changedInput({ lacks: 'x' }, { contains: 'x' })).toEqual({ lacks: 'x' });
  });
});
