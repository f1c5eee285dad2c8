// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoadError } from './load-error';

afterEach(cleanup);

describe('LoadError', () => {
  it('says what failed and why, and Retry loads again (waiting while a retry runs)', () => {
    const retry = vi.fn();
    const { rerender } = render(<LoadError title="Could not load servers." detail="Network down" onRetry={retry} />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Could not load servers. Network downRetry');
    expect(alert.querySelector('strong')!.textContent).toBe('Could not load servers.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
    rerender(<LoadError title="Could not load servers." detail="Network down" onRetry={retry} retrying />);
    expect(screen.getByRole('button', { name: 'Retry' }).hasAttribute('disabled')).toBe(true);
  });

  it('offers no Retry when the caller gives none', () => {
    render(<LoadError title="Could not load users:" detail="Forbidden" />);
    expect(screen.getByRole('alert').textContent).toBe('Could not load users: Forbidden');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
