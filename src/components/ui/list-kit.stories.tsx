import type { Story } from '@ladle/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { CommandRunnerContext, type CommandRunner } from './command-runner';
import { LinkButton } from './link-button';
import { RefreshButton } from './refresh-button';
import { ViewSwitch, type ListView } from './view-switch';

/** A runner whose every run takes a second, so the Refresh icon is seen turning; `check` may refuse. */
function Runner({ children, refuse }: { children: ReactNode; refuse?: string }) {
  const run = (() => new Promise((resolve) => setTimeout(() => resolve({}), 1000))) as CommandRunner['run'];
  return <CommandRunnerContext.Provider value={{ run, runOrThrow: run as CommandRunner['runOrThrow'], check: () => refuse ?? true, get: () => undefined }}>{children}</CommandRunnerContext.Provider>;
}

/** A router holding the story, so links have addresses to go to. */
function InRouter({ children }: { children: ReactNode }) {
  const [router] = useState(() => {
    const root = createRootRoute({ component: Outlet });
    const page = createRoute({ getParentRoute: () => root, path: '/', component: () => <>{children}</> });
    const create = createRoute({ getParentRoute: () => root, path: '/servers/create', component: () => <p className="text-sm">The Add server drawer would open here.</p> });
    return createRouter({ routeTree: root.addChildren([page, create]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  });
  return <RouterProvider router={router} />;
}

export const LinkButtons: Story = () => (
  <InRouter>
    <div className="flex flex-wrap items-center gap-2">
      <LinkButton to="/servers/create">Add server</LinkButton>
      <LinkButton to="/servers/create" variant="secondary">
        Secondary
      </LinkButton>
      <LinkButton to="/servers/create" variant="link">
        Edit
      </LinkButton>
      <LinkButton to="/servers/create" disabledReason="Your role (Read-only) cannot register servers">
        Add server (refused)
      </LinkButton>
    </div>
  </InRouter>
);

export const RefreshButtons: Story = () => (
  <div className="flex flex-wrap items-center gap-2">
    <Runner>
      <RefreshButton command="server.refresh" input={{}} />
      <RefreshButton command="server.refresh" input={{}} spinning />
      <RefreshButton command="dashboard.refresh" input={{ card: 'alerts' }} round size="sm" aria-label="Refresh Alerts Summary" />
    </Runner>
    <Runner refuse="Your role cannot read users">
      <RefreshButton command="user.refresh" input={{}} />
    </Runner>
  </div>
);

export const ViewSwitches: Story = () => {
  const [servers, setServers] = useState<ListView>('cards');
  const [users, setUsers] = useState<ListView>('table');
  return (
    <div className="flex flex-col items-start gap-3">
      <ViewSwitch value={servers} onChange={setServers} />
      <ViewSwitch value={users} onChange={setUsers} order={['table', 'cards']} />
      <p className="text-sm">Narrower than 640 px the switches are gone: lists show cards only.</p>
    </div>
  );
};
