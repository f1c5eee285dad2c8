// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChartData } from '../../../server/contract/servers';
import { setApiBaseUrl } from '../../api/client';
import { panelInfo } from '../../lib/server-panels';
import { ChartPanel, NO_DATA } from './chart-panel';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const WINDOW = { from: 1_795_000_000_000, to: 1_795_003_600_000 };
const ts = [1_795_000_000, 1_795_000_060, 1_795_000_120];

function serve(body: unknown, status = 200) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return new Response(JSON.stringify(body), { status });
    }),
  );
  return calls;
}

function show(os: 'linux' | 'windows', id: number) {
  setApiBaseUrl('http://test/api');
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ChartPanel serverId="s1" os={os} panel={panelInfo(os, id)} window={WINDOW} tz="utc" />
    </QueryClientProvider>,
  );
}

const chart = (panel: ChartData['panel'], series: ChartData['series'], timestamps = ts): { result: ChartData } => ({ result: { panel, timestamps, series } });

describe('ChartPanel', () => {
  it('asks the chart API for its panel over the window', async () => {
    const calls = serve(chart({ id: 14, title: 'CPU Cores', kind: 'stat', unit: 'short' }, [{ label: 'CPU Cores', values: [4, 4, null] }]));
    show('linux', 14);
    await screen.findByText('4');
    const url = new URL(calls[0]!);
    expect(url.pathname).toBe('/api/servers/chart/s1');
    expect(Object.fromEntries(url.searchParams)).toEqual({ panel: '14', from: String(WINDOW.from), to: String(WINDOW.to) });
  });

  it('draws a percent gauge from the newest value, coloured by SPEC’s thresholds', async () => {
    serve(chart({ id: 16, title: 'RAM Used', kind: 'gauge', unit: 'percent' }, [{ label: 'RAM Used', values: [50, 85.25, null] }]));
    show('linux', 16);
    const meter = await screen.findByRole('meter', { name: 'RAM Used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('85.3%');
    expect(meter.getAttribute('data-tone')).toBe('error');
  });

  it('draws a bar per series for a bar gauge', async () => {
    serve(chart({ id: 40, title: 'Hard Disk Usage', kind: 'bargauge', unit: 'percent' }, [
      { label: 'C:', values: [40, 41, 42] },
      { label: 'D:', values: [70, 71, 65] },
    ]));
    show('windows', 40);
    expect((await screen.findByRole('meter', { name: 'C:' })).getAttribute('aria-valuetext')).toBe('42%');
    expect(screen.getByRole('meter', { name: 'D:' }).getAttribute('data-tone')).toBe('warning');
  });

  it('shows a gauge without a 0–100 scale (a rate) as its figure', async () => {
    serve(chart({ id: 17, title: 'Bandwidth', kind: 'gauge', unit: 'bits/s' }, [{ label: 'Bandwidth', values: [1e6, 2.5e6, 12e6] }]));
    show('windows', 17);
    await screen.findByText('12 Mb/s');
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('says when the range has no data', async () => {
    serve(chart({ id: 77, title: 'CPU Basic', kind: 'timeseries', unit: 'percentunit' }, [{ label: 'Idle', values: [null, null, null] }]));
    show('linux', 77);
    await screen.findByText(NO_DATA);
  });

  it('shows the error with Retry, and the chart once a retry succeeds', async () => {
    serve({ message: 'The metric store is busy' }, 503);
    show('linux', 14);
    await screen.findByText(/Could not load this chart\. The metric store is busy/);
    serve(chart({ id: 14, title: 'CPU Cores', kind: 'stat', unit: 'short' }, [{ label: 'CPU Cores', values: [8, 8, 8] }]));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByText('8');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
