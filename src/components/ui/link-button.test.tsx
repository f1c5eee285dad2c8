// @vitest-environment happy-dom
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkButton } from './link-button';

afterEach(cleanup);

/** A router holding the list screen with its link buttons and the page they lead to. */
function renderAt(page: React.ReactNode) {
  const root = createRootRoute({ component: Outlet });
  const list = createRoute({ getParentRoute: () => root, path: '/servers', component: () => <>{page}</> });
  const create = createRoute({ getParentRoute: () => root, path: '/servers/create', component: () => <h1>New server</h1> });
  const router = createRouter({ routeTree: root.addChildren([list, create]), history: createMemoryHistory({ initialEntries: ['/servers'] }) });
  return render(<RouterProvider router={router} />);
}

describe('LinkButton', () => {
  it('is a link with an address that the router follows', async () => {
    renderAt(<LinkButton to="/servers/create">Add server</LinkButton>);
    const link = await screen.findByRole('link', { name: 'Add server' });
    expect(link.getAttribute('href')).toBe('/servers/create');
    expect(link.className).toContain('bg-blue-600');
    fireEvent.click(link);
    expect(await screen.findByRole('heading', { name: 'New server' })).toBeTruthy();
  });

  it('with a reason it cannot be followed: no address, dimmed, the reason as the tooltip', async () => {
    renderAt(<LinkButton to="/servers/create" disabledReason="Needs the sysadmin role">Add server</LinkButton>);
    const link = await screen.findByRole('link', { name: 'Add server' });
    expect(link.hasAttribute('href')).toBe(false);
    expect(link.getAttribute('aria-disabled')).toBe('true');
    expect(link.className).toContain('pointer-events-none');
    expect((link.parentElement as HTMLElement).title).toBe('Needs the sysadmin role');
  });

  it('with a reason of false it is followed as usual, inside the same span', async () => {
    renderAt(<LinkButton to="/servers/create" disabledReason={false} variant="link">Add server</LinkButton>);
    const link = await screen.findByRole('link', { name: 'Add server' });
    expect(link.getAttribute('href')).toBe('/servers/create');
    expect(link.className).toContain('text-blue-700');
    expect(link.className).not.toContain('pointer-events-none');
    expect(link.parentElement!.tagName).toBe('SPAN');
    expect(link.parentElement!.hasAttribute('title')).toBe(false);
  });
});
