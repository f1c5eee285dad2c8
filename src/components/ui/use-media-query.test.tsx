// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useIsPhone, useMediaQuery } from './use-media-query';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A matchMedia whose answer the test sets, telling its listeners as a browser does. */
function fakeMatchMedia(matching: Set<string>) {
  const listeners = new Set<() => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return matching.has(query);
    },
    addEventListener: (_: string, cb: () => void) => listeners.add(cb),
    removeEventListener: (_: string, cb: () => void) => listeners.delete(cb),
  }));
  return { set: (query: string, on: boolean) => act(() => void (on ? matching.add(query) : matching.delete(query), listeners.forEach((cb) => cb()))), listeners };
}

function Probe({ query }: { query: string }) {
  return <p>{`${useMediaQuery(query)} ${useIsPhone()}`}</p>;
}

describe('useMediaQuery', () => {
  it('answers the query now and again when it changes; useIsPhone asks for screens below 640 px', () => {
    const media = fakeMatchMedia(new Set());
    const { unmount } = render(<Probe query="(prefers-color-scheme: dark)" />);
    expect(screen.getByText('false false')).toBeTruthy();
    media.set('(prefers-color-scheme: dark)', true);
    expect(screen.getByText('true false')).toBeTruthy();
    media.set('(max-width: 639px)', true);
    expect(screen.getByText('true true')).toBeTruthy();
    unmount();
    expect(media.listeners.size).toBe(0);
  });
});
