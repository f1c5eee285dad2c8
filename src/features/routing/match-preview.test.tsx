// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, queryOptions } from '@tanstack/react-query';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MatchPreview as Preview } from '../../../server/contract/routing';
import { MatchPreview } from './match-preview';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const answer = (serverCount: number): { result: Preview } => ({ result: { alerts: [], alertCount: 0, servers: [], serverCount, warning: null } });

describe('MatchPreview', () => {
  it('asks its query-options factory for the body once it has been still for 400 ms', async () => {
    vi.useFakeTimers();
    const load = vi.fn(async (body: { matchers: string[] }) => answer(body.matchers.length));
    const options = (body: { matchers: string[] }) => queryOptions({ queryKey: ['match-preview', 'probe', body] as const, queryFn: () => load(body), retry: false });
    const client = new QueryClient();
    const ui = (matchers: string[]) => (
      <QueryClientProvider client={client}>
        <MatchPreview body={{ matchers }} options={options} enabled={matchers.length > 0} what="a matcher" />
      </QueryClientProvider>
    );
    const { rerender } = render(ui([]));
    expect(screen.getByText('Fill in a matcher to see what it matches.')).toBeTruthy();

    rerender(ui(['a']));
    await act(async () => void (await vi.advanceTimersByTimeAsync(200)));
    rerender(ui(['a', 'b']));
    await act(async () => void (await vi.advanceTimersByTimeAsync(399)));
    expect(load).not.toHaveBeenCalled();
    await act(async () => void (await vi.advanceTimersByTimeAsync(1)));
    expect(load).toHaveBeenCalledTimes(1);
    expect(load).toHaveBeenCalledWith({ matchers: ['a', 'b'] });
    await act(async () => void (await vi.advanceTimersByTimeAsync(0)));
    expect(screen.getByTestId('preview-counts').textContent).toBe('0 open alerts on 2 servers');

    // While the next change settles, the last answer stays.
    rerender(ui(['a', 'b', 'c']));
    await act(async () => void (await vi.advanceTimersByTimeAsync(200)));
    expect(screen.getByTestId('preview-counts').textContent).toBe('0 open alerts on 2 servers');
    await act(async () => void (await vi.advanceTimersByTimeAsync(200)));
    await act(async () => void (await vi.advanceTimersByTimeAsync(0)));
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('preview-counts').textContent).toBe('0 open alerts on 3 servers');
  });
});
