// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setApiBaseUrl } from '../../api/client';
import { CommandRunnerContext } from '../../app/command-host/run-command';
import { HistoryPanel, historyQuery } from './history-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const base = {
  origin: 'client',
  actorKind: 'user',
  role: 'admin',
  actorKeyId: null,
  actorLabel: null,
  commandLine: null,
  displayLine: null,
  status: null,
  method: null,
  route: null,
  targets: [],
  requestBody: null,
  requestId: null,
  runId: null,
  undoOf: null,
};
const entry = {
  ...base,
  _id: 'h1',
  userId: 'u1',
  username: 'carol',
  command: 'user.set-role',
  displayLine: 'user.set-role ann --role admin',
  input: { user: 'ann', role: 'admin' },
  source: 'cmdline',
  outcome: 'error',
  error: 'No user matches "ann"',
  durationMs: 12,
  createdAt: '2026-11-23T04:00:00.000Z',
};
/** What the server wrote for a change: the line the browser sent, the host by name. */
const serverEntry = {
  ...base,
  _id: 'h2',
  origin: 'server',
  userId: 'u2',
  username: 'dave',
  role: 'sysadmin',
  command: 'server.toggle-maintenance',
  commandLine: 'server.toggle-maintenance --server 5f0c --mode on',
  // The server names what the line's ids picked (issue 24 §4): the panel shows this, re-runs the stored line.
  displayLine: 'server.toggle-maintenance web-01 --mode on',
  input: null,
  source: 'palette',
  outcome: 'ok',
  error: null,
  durationMs: 30,
  method: 'PATCH',
  route: '/api/servers/:id',
  targets: [{ kind: 'server', id: '5f0c', name: 'web-01' }],
  createdAt: '2026-11-23T04:01:00.000Z',
};
/** A run from a notification's link (issue 27 §4): the console's command, its source in words. */
const pageEntry = { ...serverEntry, _id: 'h4', username: 'erin', role: 'user', command: 'alert.ack', commandLine: 'alert.ack a2', displayLine: 'alert.ack disk_full@db-02', source: 'email', durationMs: 9, targets: [{ kind: 'alert', id: 'a2', name: 'disk_full @ db-02' }] };
/** A call made with curl: no command, so no re-run. */
const apiEntry = { ...serverEntry, _id: 'h3', command: 'DELETE /api/alerts/:id', commandLine: null, displayLine: null, source: 'api', targets: [{ kind: 'alert', id: 'a1', name: 'high_cpu_usage @ web-01' }] };

describe('historyQuery', () => {
  it('sends only the filters that are filled in, newest first; sign-ins and views hidden unless asked for (issue 24 §4)', () => {
    expect(historyQuery({ command: '', username: '', outcome: '' })).toEqual({ pageNumber: 1, pageSize: 100, sort: { by: 'createdAt', direction: 'desc' }, filter: { kind: ['command', 'system'] } });
    expect(historyQuery({ command: ' user. ', username: 'car', outcome: 'error' }).filter).toEqual({ command: { contains: 'user.' }, username: { contains: 'car' }, outcome: { eq: 'error' }, kind: ['command', 'system'] });
    expect(historyQuery({ system: false, signins: true }).filter).toEqual({ kind: ['command', 'signin', 'view'] });
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(historyQuery({ since: '1h' }, now).filter?.createdAt).toEqual({ between: ['2026-11-23T09:00:00.000Z', '2026-11-24T10:00:00.000Z'] });
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
        return new Response(JSON.stringify({ result: { data: [serverEntry, entry, apiEntry, pageEntry], count: 4 } }), { status: 200 });
      }),
    );
    const run = vi.fn(async () => ({}));
    const client = new QueryClient();
    const panel = (filters: Parameters<typeof HistoryPanel>[0]['filters']) => (
      <QueryClientProvider client={client}>
        <CommandRunnerContext.Provider value={{ run, runOrThrow: run, check: () => true, get: () => undefined }}>
          <HistoryPanel filters={filters} onClose={vi.fn()} />
        </CommandRunnerContext.Provider>
      </QueryClientProvider>
    );
    const { rerender } = render(panel({}));
    await screen.findByText('user.set-role ann --role admin');
    expect(screen.getByText(/carol/).textContent).toMatch(/carol \(admin\) · .* · cmdline · 12 ms/);
    expect(screen.getByText('No user matches "ann"')).toBeTruthy();
    // The browser's own report is marked; the server's record names the host and keeps the line.
    expect(screen.getAllByText('client-reported')).toHaveLength(1);
    expect(screen.getByText('server.toggle-maintenance web-01 --mode on')).toBeTruthy();
    expect(screen.queryByText(/5f0c/)).toBeNull();
    expect(screen.getAllByText(/dave/)[0]!.textContent).toMatch(/dave \(sysadmin\) · .* · palette · 30 ms/);
    expect(screen.getByText('alert high_cpu_usage @ web-01')).toBeTruthy();
    expect(screen.getByText(/erin/).textContent).toMatch(/erin \(user\) · .* · from an email link · 9 ms/);
    expect(screen.queryByRole('button', { name: 'Re-run DELETE /api/alerts/:id' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Re-run server.toggle-maintenance web-01 --mode on' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Re-run user.set-role ann --role admin' }));
    expect(run).toHaveBeenCalledWith('history.rerun', { entry: 'h1' }, { source: 'history' });
    // The filters are history.show's arguments: the boxes run it (issue 13), the panel shows what it opened with.
    fireEvent.change(screen.getByLabelText('Filter by outcome'), { target: { value: 'error' } });
    expect(run).toHaveBeenLastCalledWith('history.show', { outcome: 'error' });
    rerender(panel({ outcome: 'error' }));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ filter: { outcome: { eq: 'error' } } }));
    expect((screen.getByLabelText('Filter by outcome') as HTMLSelectElement).value).toBe('error');
    // A text box runs it after a pause in typing, keeping the other filters.
    fireEvent.change(screen.getByLabelText('Filter by command'), { target: { value: 'user.' } });
    expect(run).not.toHaveBeenCalledWith('history.show', expect.objectContaining({ command: 'user.' }));
    await waitFor(() => expect(run).toHaveBeenLastCalledWith('history.show', { command: 'user.', outcome: 'error' }));
    // history.show from elsewhere (the command line) fills the boxes.
    rerender(panel({ username: 'dave' }));
    expect((screen.getByLabelText('Filter by user') as HTMLInputElement).value).toBe('dave');
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ filter: { username: { contains: 'dave' } } }));
  });

  it("'Incident report' runs incident.report (which opens the report page) and steps aside", async () => {
    setApiBaseUrl('http://test/api');
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ result: { data: [], count: 0 } }), { status: 200 })));
    const run = vi.fn(async () => ({}));
    const onClose = vi.fn();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <CommandRunnerContext.Provider value={{ run, runOrThrow: run, check: () => true, get: () => undefined }}>
          <HistoryPanel filters={{}} onClose={onClose} />
        </CommandRunnerContext.Provider>
      </QueryClientProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Incident report' }));
    expect(run).toHaveBeenCalledWith('incident.report', {});
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
