// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApiBaseUrl } from '../../api/client';
import { CommandRunnerContext } from '../../lib/run-command';
import { HistoryPanel, historyQuery } from './history-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const entry = {
  _id: 'h1',
  userId: 'u1',
  username: 'carol',
  command: 'user.set-role',
  input: { user: 'ann', role: 'admin' },
  source: 'cmdline',
  outcome: 'error',
  error: 'No user matches "ann"',
  durationMs: 12,
  createdAt: '2026-11-23T04:00:00.000Z',
};

describe('historyQuery', () => {
  it('sends only the filters that are filled in, newest first', () => {
    expect(historyQuery({ command: '', username: '', outcome: '' })).toEqual({ pageNumber: 1, pageSize: 100, sort: { by: 'createdAt', direction: 'desc' } });
    expect(historyQuery({ command: ' user. ', username: 'car', outcome: 'error' }).filter).toEqual({ command: { contains: 'user.' }, username: { contains: 'car' }, outcome: { eq: 'error' } });
  });
});

describe('HistoryPanel', () => {
  it('lists who ran what, how it ended, and re-runs an entry through the gate with source "history"', async () => {
    setApiBaseUrl('http://test/api');
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return new Response(JSON.stringify({ result: { data: [entry], count: 1 } }), { status: 200 });
      }),
    );
    const run = vi.fn(async () => ({}));
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CommandRunnerContext.Provider value={{ run, check: () => true }}>
          <HistoryPanel onClose={vi.fn()} onError={vi.fn()} />
        </CommandRunnerContext.Provider>
      </QueryClientProvider>,
    );
    await screen.findByText('user.set-role');
    expect(screen.getByText(/carol/).textContent).toMatch(/cmdline · 12 ms/);
    expect(screen.getByText('No user matches "ann"')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Re-run user.set-role' }));
    expect(run).toHaveBeenCalledWith('history.rerun', { entry: 'h1' }, { source: 'history' });
    fireEvent.change(screen.getByLabelText('Filter by outcome'), { target: { value: 'error' } });
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ filter: { outcome: { eq: 'error' } } }));
  });

  it("'Incident report' runs incident.report (which opens the report page) and steps aside", async () => {
    setApiBaseUrl('http://test/api');
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ result: { data: [], count: 0 } }), { status: 200 })));
    const run = vi.fn(async () => ({}));
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CommandRunnerContext.Provider value={{ run, check: () => true }}>
          <HistoryPanel onClose={onClose} onError={vi.fn()} />
        </CommandRunnerContext.Provider>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Incident report' }));
    expect(run).toHaveBeenCalledWith('incident.report', {}, { source: 'ui' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
