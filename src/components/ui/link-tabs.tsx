import { Link } from '@tanstack/react-router';
import { cx } from './cx';

/**
 * Tabs that are links (sections of one area, each its own URL): the current one carries aria-current.
 * On a phone the row scrolls sideways within itself rather than widening the page.
 */
export function LinkTabs({ label, items }: { label: string; items: readonly { to: string; label: string; current: boolean }[] }) {
  return (
    <nav aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-700">
      {items.map((i) => (
        <Link
          key={i.to}
          to={i.to}
          aria-current={i.current ? 'page' : undefined}
          className={cx(
            '-mb-px shrink-0 whitespace-nowrap rounded-t-md border-b-2 px-3 py-2 text-sm font-medium outline-none focus-visible:ring-2 focus-visible:ring-blue-500',
            i.current ? 'border-blue-600 text-blue-700 dark:text-blue-300' : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100',
          )}
        >
          {i.label}
        </Link>
      ))}
    </nav>
  );
}

/** The Notifications area: alerts, (issue 14) silences and maintenance windows, and (issue 15) Alertmanager integration. */
export function NotificationsTabs({ current }: { current: 'alerts' | 'silences' | 'maintenance' | 'integrations' }) {
  return (
    <LinkTabs
      label="Notifications"
      items={[
        { to: '/notifications', label: 'Alerts', current: current === 'alerts' },
        { to: '/notifications/silences', label: 'Silences', current: current === 'silences' },
        { to: '/notifications/maintenance', label: 'Maintenance', current: current === 'maintenance' },
        { to: '/notifications/integrations', label: 'Integrations', current: current === 'integrations' },
      ]}
    />
  );
}
