import { getRouteApi, Link, Outlet, useRouterState } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { menuItems } from '../../commands/nav/go-commands';
import { alertsSummaryQueryOptions } from '../api/analytics';
import { whoamiQueryOptions } from '../api/auth';
import { Button } from '../components/ui/button';
import { cx } from '../components/ui/cx';
import { Icon, type IconName } from '../components/ui/icons';
import { Switch } from '../components/ui/switch';
import { AccountDrawer } from '../features/account/account-drawer';
import { MyShift } from '../features/oncall/my-shift';
import { getColorMode, onColorModeChange } from '../lib/color-mode';
import { CommandButton } from './command-host/command-button';
import { ariaKeyshortcuts, shortcutLabel } from './command-host/hotkeys';
import { useCommandRunner } from './command-host/run-command';
import { onOpenPanel } from '../lib/shell-events';
import { storeUser } from '../lib/stored-user';
import { useConnection } from '../lib/use-connection';
import { AlertToasts } from './live/alert-toasts';
import { ConnectionBanner } from './live/connection-banner';
import { useLive } from './live/use-live';
import { CommandHost } from './command-host/command-host';

const appRoute = getRouteApi('/app');

/** The sidebar's icon per menu entry: every entry has one, or a collapsed sidebar shows an empty slot. */
export const menuIcons: Record<(typeof menuItems)[number]['id'], IconName> = {
  'nav.go-dashboard': 'dashboard',
  'nav.go-servers': 'servers',
  'nav.go-checks': 'checks',
  'nav.go-notifications': 'notifications',
  'nav.go-notification-groups': 'groups',
  'nav.go-pinned-widgets': 'widgets',
  'nav.go-status-pages': 'statusPages',
  'nav.go-oncall': 'oncall',
  'nav.go-users': 'users',
};

/** Sidebar (256 px, 80 px collapsed, a drawer on small screens), top bar and the command host. */
export function AppLayout() {
  const { user: initial } = appRoute.useRouteContext();
  const { data } = useQuery(whoamiQueryOptions());
  const user = data?.result ?? initial;
  useEffect(() => storeUser(user), [user]);
  useLive();
  return (
    <CommandHost user={user}>
      <Shell username={user.username} />
      <AlertToasts userId={user._id} />
    </CommandHost>
  );
}

function Shell({ username }: { username: string }) {
  const runner = useCommandRunner();
  const [collapsed, setCollapsed] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const [dark, setDark] = useState(() => getColorMode() === 'dark');
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => onColorModeChange((m) => setDark(m === 'dark')), []);
  useEffect(() => onOpenPanel((p) => p === 'account' && setAccountOpen(true)), []);
  useEffect(() => setMobileOpen(false), [pathname]);
  const firing = useFiringCount();
  const { lost } = useConnection();

  // The registry says which menu entries this person may open (the nav.go-* command each stands
  // for), as it says for every button; each stays a link so it can be opened in a new tab and
  // preloads its screen's data on hover.
  const items = menuItems.filter((m) => runner.check(m.id) === true);

  const sidebar = (narrow: boolean) => (
    <nav aria-label="Main" className="flex h-full flex-col gap-1 p-3">
      <div className={cx('mb-4 flex h-10 items-center px-2 text-lg font-bold', narrow && 'justify-center px-0')}>{narrow ? 'O' : 'Opsdeck'}</div>
      {items.map((m) => {
        const active = m.to === '/' ? pathname === '/' : pathname.startsWith(m.to);
        return (
          <Link
            key={m.id}
            to={m.to as "/"}
            title={narrow ? m.label : undefined}
            aria-label={narrow ? m.label : undefined}
            aria-keyshortcuts={ariaKeyshortcuts(runner.get(m.id)?.shortcut)}
            className={cx(
              'flex h-10 items-center gap-3 rounded-md px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-blue-500',
              narrow && 'justify-center px-0',
              active ? 'bg-blue-50 font-semibold text-blue-700 dark:bg-slate-800 dark:text-blue-300' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
            )}
          >
            <span className="relative inline-flex">
              <Icon name={menuIcons[m.id]} size={18} className="w-5" />
              {m.id === 'nav.go-notifications' && firing > 0 && narrow && (
                <span aria-hidden="true" data-testid="sidebar-firing" className="absolute -right-2 -top-2 min-w-4 rounded-full bg-red-600 px-1 text-center text-[10px] leading-4 font-semibold text-white">
                  {firing > 99 ? '99+' : firing}
                </span>
              )}
            </span>
            {!narrow && m.label}
            {!narrow && m.id === 'nav.go-notifications' && firing > 0 && (
              // Hidden from the link's name (the menu entry stays "Notifications"); the tab title says it in words.
              <span aria-hidden="true" data-testid="sidebar-firing" className="ml-auto rounded-full bg-red-600 px-2 text-xs leading-5 font-semibold text-white">
                {firing}
              </span>
            )}
          </Link>
        );
      })}
    </nav>
  );

  return (
    <div className="flex min-h-screen">
      <aside
        style={{ width: collapsed ? 80 : 256 }}
        className="sticky top-0 hidden h-screen shrink-0 border-r border-slate-200 bg-white transition-[width] md:block dark:border-slate-800 dark:bg-slate-900"
      >
        {sidebar(collapsed)}
      </aside>
      {mobileOpen && (
        <div className="fixed inset-0 z-40 bg-slate-900/40 md:hidden" onClick={() => setMobileOpen(false)}>
          <aside style={{ width: 256 }} className="h-full bg-white dark:bg-slate-900" onClick={(e) => e.stopPropagation()}>
            {sidebar(false)}
          </aside>
        </div>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-slate-200 bg-white px-3 dark:border-slate-800 dark:bg-slate-900">
          <Button variant="ghost" size="sm" aria-label="Open menu" className="md:hidden" onPress={() => setMobileOpen(true)}>
            <Icon name="menu" size={18} />
          </Button>
          {/* The wrapper hides it on phones: the button's own display class would win over `hidden`. */}
          <div className="hidden md:block">
            <Button variant="ghost" size="sm" aria-label={collapsed ? 'Expand sidebar' : 'Collapse sidebar'} onPress={() => setCollapsed((c) => !c)}>
              <Icon name={collapsed ? 'expand' : 'collapse'} size={18} />
            </Button>
          </div>
          {/* Named by what it shows (WCAG 2.5.3 label in name): a speech user says "Search". */}
          <CommandButton command="palette.open" input={{}} variant="secondary" size="sm">
            {/* A phone has room for one word: the header must not scroll sideways. */}
            <span className="text-slate-500 dark:text-slate-400">
              <span className="max-[400px]:hidden sm:hidden">Search…</span>
              <span className="min-[401px]:hidden">
                <Icon name="search" />
                <span className="sr-only">Search</span>
              </span>
              <span className="hidden sm:inline">Search or run a command…</span>
            </span>
            <kbd className="ml-2 hidden rounded border border-slate-300 px-1 text-xs sm:inline dark:border-slate-600">{shortcutLabel(runner.get('palette.open')?.shortcut ?? '')}</kbd>
          </CommandButton>
          <div className="ml-auto flex items-center gap-2 sm:gap-3">
            <MyShift />
            <Switch isSelected={dark} onChange={(v) => void runner.run('ui.toggle-dark-mode', { mode: v ? 'dark' : 'light' })}>
              <span className="hidden sm:inline">Dark Mode</span>
              <span className="sr-only sm:hidden">Dark Mode</span>
            </Switch>
            <Button variant="ghost" size="sm" onPress={() => setAccountOpen(true)}>
              <span className="block max-w-[7rem] truncate sm:max-w-[14rem]">{username}</span>
            </Button>
            <CommandButton command="session.logout" input={{}} variant="secondary" size="sm">
              Logout
            </CommandButton>
          </div>
        </header>
        <ConnectionBanner />
        {/* Figures of a cut connection are greyed: they are the last known, not now. */}
        <main data-stale={lost || undefined} className={cx('min-w-0 flex-1 p-4 transition-[filter,opacity] md:p-6', lost && 'opacity-60 grayscale')}>
          <Outlet />
        </main>
      </div>
      <AccountDrawer isOpen={accountOpen} onOpenChange={setAccountOpen} />
    </div>
  );
}

/** Firing alerts now: counted in the tab title ("(3) Opsdeck") and beside Notifications in the sidebar; live events refetch it. */
function useFiringCount(): number {
  const { data } = useQuery(alertsSummaryQueryOptions());
  const firing = data?.result.total_alerts_firing ?? 0;
  useEffect(() => {
    document.title = firing > 0 ? `(${firing}) Opsdeck` : 'Opsdeck';
  }, [firing]);
  useEffect(() => () => void (document.title = 'Opsdeck'), []);
  return firing;
}
