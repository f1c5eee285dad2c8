// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedValue } from './use-debounced-value';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function Probe({ value }: { value: string }) {
  return <p>{`settled: ${useDebouncedValue(value, 300)}`}</p>;
}

describe('useDebouncedValue', () => {
  it('gives the first value at once and a later one when it has stayed for the wait', () => {
    vi.useFakeTimers();
    const { rerender } = render(<Probe value="w" />);
    expect(screen.getByText('settled: w')).toBeTruthy();
    rerender(<Probe value="we" />);
    act(() => void vi.advanceTimersByTime(200));
    rerender(<Probe value="web" />);
    act(() => void vi.advanceTimersByTime(299));
    expect(screen.getByText('settled: w')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(1));
    expect(screen.getByText('settled: web')).toBeTruthy();
  });
});
