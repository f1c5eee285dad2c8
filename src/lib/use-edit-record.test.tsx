// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CommandRunnerContext, type CommandRunner } from '../components/ui/command-runner';
import { useEditRecord } from './use-edit-record';

const toasts = vi.hoisted(() => [] as [string, string][]);
vi.mock('../components/ui/toast', () => ({ toast: (kind: string, text: string) => void toasts.push([kind, text]) }));

afterEach(() => {
  cleanup();
  toasts.length = 0;
});

function Probe({ queryFn, close }: { queryFn: () => Promise<{ result: { name: string } }>; close: (ignoreBlocker?: boolean) => void }) {
  const { allowed, data } = useEditRecord('server.edit', { queryKey: ['probe', queryFn.name], queryFn, retry: false }, 'server', close);
  return <p>{allowed ? (data?.result.name ?? 'loading') : 'not allowed'}</p>;
}

function mount(check: CommandRunner['check'], queryFn: () => Promise<{ result: { name: string } }>, close = vi.fn()) {
  const run = vi.fn() as unknown as CommandRunner['run'];
  render(
    <QueryClientProvider client={new QueryClient()}>
      <CommandRunnerContext.Provider value={{ run, runOrThrow: run as CommandRunner['runOrThrow'], check, get: () => undefined }}>
        <Probe queryFn={queryFn} close={close} />
      </CommandRunnerContext.Provider>
    </QueryClientProvider>,
  );
  return close;
}

describe('useEditRecord', () => {
  it('loads the record when the role may run the edit command', async () => {
    const close = mount(() => true, async function ok() {
      return { result: { name: 'web-01' } };
    });
    await screen.findByText('web-01');
    expect(close).not.toHaveBeenCalled();
    expect(toasts).toEqual([]);
  });

  it('says a failed load and goes back to the list without the unsaved-changes prompt', async () => {
    const close = mount(() => true, async function failing() {
      throw new Error('Server not found');
    });
    await waitFor(() => expect(close).toHaveBeenCalledWith(true));
    expect(toasts).toEqual([['error', 'Could not load the server: Server not found']]);
  });

  it('sends the person back with the reason, and loads nothing, when the role may not edit', async () => {
    const queryFn = vi.fn(async function refused() {
      return { result: { name: 'web-01' } };
    });
    const close = mount(() => 'Only Admin or sysadmin accounts can do this.', queryFn);
    await waitFor(() => expect(close).toHaveBeenCalledWith(true));
    expect(screen.getByText('not allowed')).toBeTruthy();
    expect(queryFn).not.toHaveBeenCalled();
    expect(toasts).toEqual([['error', 'Only Admin or sysadmin accounts can do this.']]);
  });
});
