// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRunnerContext, type CommandRunner } from './command-runner';
import { RefreshButton } from './refresh-button';

afterEach(cleanup);

function withRunner(ui: React.ReactNode, run: CommandRunner['run']) {
  return render(<CommandRunnerContext.Provider value={{ run, runOrThrow: run as CommandRunner['runOrThrow'], check: () => true, get: () => undefined }}>{ui}</CommandRunnerContext.Provider>);
}

const spins = (button: HTMLElement) => button.querySelector('[data-icon="refresh"]')!.classList.contains('animate-spin');

describe('RefreshButton', () => {
  it('runs the list refresh command through the runner, spinning and disabled until the run ends', async () => {
    let finish!: () => void;
    const run = vi.fn(() => new Promise<null>((resolve) => (finish = () => resolve(null))));
    withRunner(<RefreshButton command="status.refresh" input={{}} />, run as unknown as CommandRunner['run']);
    const button = screen.getByRole('button', { name: 'Refresh' });
    expect(button.textContent).toBe('Refresh');
    expect(spins(button)).toBe(false);
    fireEvent.click(button);
    expect(run).toHaveBeenCalledWith('status.refresh', {}, { source: undefined });
    expect(spins(button)).toBe(true);
    expect(button.hasAttribute('disabled')).toBe(true);
    await act(async () => finish());
    expect(spins(button)).toBe(false);
    expect(button.hasAttribute('disabled')).toBe(false);
  });

  it('spins while the list fetches on its own; round is the icon alone under the given name', () => {
    withRunner(<RefreshButton command="dashboard.refresh" input={{ card: 'alerts' }} round size="sm" aria-label="Refresh Alerts Summary" spinning />, vi.fn() as unknown as CommandRunner['run']);
    const button = screen.getByRole('button', { name: 'Refresh Alerts Summary' });
    expect(button.textContent).toBe('');
    expect(spins(button)).toBe(true);
  });
});
