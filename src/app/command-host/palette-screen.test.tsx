// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAppRegistry } from '../../../commands';
import type { CommandContext } from '../../../commands/define-command';
import type { Api } from '../../api/client';
import { fakeAlert, fakeServer } from '../../../tests/commands/fake-server';
import { createRecents } from '../../lib/recents';
import { EntityIndex } from './entity-index';
import { Palette } from './palette';

/**
 * Issue 24 §5 and §8 in the palette, with the app's own commands: a screen's tabs and controls
 * found by their names, the thing on screen as an argument's first choice, pickers that list
 * what needs a person first, prompts that read as sentences.
 */
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 600 });
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(cleanup);

const SERVER = '00000000-0000-4000-8000-0000000000a2';
const ALERT = '00000000-0000-4000-8000-0000000000b2';
const OTHER = '00000000-0000-4000-8000-0000000000b3';
const alert = fakeAlert({ _id: ALERT, alertname: 'high_cpu_usage', hostname: 'db-02', summary: 'CPU high', status: 'firing', severity: 'critical', createdAt: '2026-06-01T12:00:00.000Z', serverId: SERVER });
const server = fakeServer({ _id: SERVER, hostname: 'db-02', ipaddress: '10.0.0.2', operating_system: 'linux', state: 'up' });

function setup(pathname: string, fetchEntities = true) {
  const registry = createAppRegistry();
  const api = {
    get: vi.fn(async (path: string) => {
      if (path === 'search') return { result: { hits: [{ kind: 'alert', _id: OTHER, alertname: 'instance_down', hostname: 'web-01', summary: '', status: 'firing', severity: 'critical', createdAt: '2026-06-01T12:05:00.000Z' }] } };
      if (path === `alerts/${ALERT}`) return { result: { ...alert, timeline: [] } };
      if (path === `servers/${SERVER}`) return { result: server };
      throw new Error(`unexpected GET ${path}`);
    }),
    post: vi.fn(async (path: string) => {
      if (path === 'alerts/all') return { result: { data: [alert], count: 1 } };
      throw new Error(`unexpected POST ${path}`);
    }),
  } as unknown as Api;
  const ctx = {
    api,
    user: { _id: 'u1', username: 'me', email: 'me@x', role: 'admin' },
    navigate: vi.fn(),
    invalidate: vi.fn(),
    confirm: vi.fn(),
    ui: { colorMode: () => 'light', setColorMode: vi.fn(), open: vi.fn() },
    session: { signedIn: vi.fn(), signedOut: vi.fn() },
    run: vi.fn(),
    location: () => ({ pathname, search: {} }),
  } as unknown as CommandContext;
  const onRun = vi.fn();
  const store = new Map<string, string>();
  const recents = createRecents({ get: (k) => store.get(k) ?? null, set: (k, v) => void store.set(k, v) }, 'u1');
  render(<Palette registry={registry} ctx={ctx} index={new EntityIndex()} fetchEntities={fetchEntities} recents={recents} onRun={onRun} onClose={vi.fn()} />);
  return { onRun, recents };
}

const input = () => screen.getByRole('combobox') as HTMLInputElement;
const type = (text: string) => fireEvent.change(document.activeElement ?? input(), { target: { value: text } });
const key = (k: string) => fireEvent.keyDown(document.activeElement ?? input(), { key: k });
const rows = () => [...document.querySelectorAll('[cmdk-item]')].map((r) => r.textContent);
const settled = () => waitFor(() => expect(screen.getByTestId('palette-results').getAttribute('data-settled')).toBe('true'));

describe('the palette on a server detail', () => {
  it('finds a tab by its name: "cpu" is the CPU tab, and Enter opens it', async () => {
    const { onRun } = setup(`/servers/show/${SERVER}`, false);
    type('cpu');
    await waitFor(() => expect(rows()[0]).toBe('Server detailCPU tabOpen server detail tab'));
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('server.tab', { tab: 'cpu' });
  });

  it('finds the time-range presets and the maintenance switch by name; a preset asks for no start and end', async () => {
    const { onRun } = setup(`/servers/show/${SERVER}`, false);
    type('last 1');
    await waitFor(() => expect(rows()[0]).toMatch(/^Server detailLast 1 Hour/));
    key('Enter');
    expect(onRun).toHaveBeenLastCalledWith('server.time-range', { range: '1h' });
    type('maint');
    await waitFor(() => expect(rows()[0]).toMatch(/^Server detailMaintenance onToggle server maintenance$/));
    key('Enter');
    // The open server is the one it is for, as its header's toggle.
    expect(onRun).toHaveBeenLastCalledWith('server.toggle-maintenance', { server: SERVER, mode: 'on' });
  });

  it('asks the time range with its presets first and no "(skip)"; after a preset, no start or end', async () => {
    const { onRun } = setup(`/servers/show/${SERVER}`, false);
    type('set chart time range');
    await waitFor(() => expect(rows()[0]).toMatch(/Set chart time range/));
    key('Enter');
    await waitFor(() => expect(rows()).toEqual(['Last 1 Hour', 'Last 3 Hours', 'Last 6 Hours', 'Last 12 Hours', 'Last 24 Hours', 'Custom range']));
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('server.time-range', { range: '1h' });
  });

  it('offers this server first for a server argument, and its open alerts for an alert argument', async () => {
    const { onRun } = setup(`/servers/show/${SERVER}`);
    type('Resolve alert');
    await waitFor(() => expect(rows()[0]).toMatch(/Resolve alert/));
    key('Enter');
    await settled();
    expect(rows()[0]).toMatch(/^On screenhigh cpu usage · db-02/);
    expect(rows()[1]).toMatch(/^Alertinstance down · web-01/);
    key('Enter');
    expect(screen.getByText('Notes: type it and press Enter')).toBeTruthy();
    type('fixed');
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('alert.resolve', { alert: ALERT, note: 'fixed' });
  });

  it('leaves the tabs out elsewhere', async () => {
    setup('/', false);
    type('cpu tab');
    await waitFor(() => expect(rows().some((r) => r?.includes('CPU tab'))).toBe(false));
  });
});

describe('the palette on an alert drawer', () => {
  it('takes the drawer’s alert as the first choice, and its server for a server argument; prompts read as sentences', async () => {
    const { onRun } = setup(`/notifications/show/${ALERT}`);
    type('Acknowledge alert');
    await waitFor(() => expect(rows()[0]).toMatch(/Acknowledge alert/));
    key('Enter');
    await settled();
    expect(rows()[0]).toMatch(/^On screenhigh cpu usage · db-02/);
    key('Enter');
    expect(screen.getByText('Note (optional): type it and press Enter, or press Enter to skip')).toBeTruthy();
    type('on it');
    key('Enter');
    expect(screen.getByText('Acknowledge for (optional): type it and press Enter, or press Enter to skip')).toBeTruthy();
    key('Enter');
    expect(onRun).toHaveBeenCalledWith('alert.ack', { alert: ALERT, note: 'on it' });

    type('Toggle server maintenance');
    await waitFor(() => expect(rows()[0]).toMatch(/Toggle server maintenance/));
    key('Enter');
    await settled();
    expect(rows()[0]).toMatch(/^On screendb-02/);
  });
});

describe('recent hosts', () => {
  it('ranks the things on a host used lately first: the server of the alert just picked', async () => {
    const { recents } = setup('/', false);
    cleanup();
    recents.record(`alert:${ALERT}`, { kind: 'alert', id: ALERT, title: 'high cpu usage · db-02', subtitle: '', value: ALERT, completion: 'high_cpu_usage@db-02', host: 'db-02' });
    const index = new EntityIndex();
    index.add([
      { kind: 'server', id: 'id-1', title: 'db-01', subtitle: '', value: 'id-1', completion: 'db-01', host: 'db-01' },
      { kind: 'server', id: 'id-2', title: 'db-02', subtitle: '', value: 'id-2', completion: 'db-02', host: 'db-02' },
    ]);
    const registry = createAppRegistry();
    render(<Palette registry={registry} ctx={{ user: { _id: 'u1', username: 'me', email: '', role: 'admin' }, location: () => ({ pathname: '/', search: {} }) } as unknown as CommandContext} index={index} fetchEntities={false} recents={recents} onRun={vi.fn()} onClose={vi.fn()} />);
    type('db');
    await waitFor(() => expect(rows()[0]).toMatch(/^Serverdb-02/));
  });
});
