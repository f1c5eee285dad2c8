import { AlertsConfigTab } from '../features/alert-rules/alerts-config-tab';
import { ServerDetailPage } from '../features/server-detail/server-detail-page';
import { ServerTabSlotsContext, type ServerTabSlots } from '../features/server-detail/tab-slots';
import { ServerNotificationsTab } from '../features/notifications/server-notifications-tab';

/**
 * The server detail with the tabs other features own (STYLE.md: features do not import each
 * other, routes compose them). Each feature adds its component here.
 */
const slots: ServerTabSlots = {
  notifications: ServerNotificationsTab,
  alertsConfiguration: AlertsConfigTab,
};

export function ServerDetailWithTabs() {
  return (
    <ServerTabSlotsContext.Provider value={slots}>
      <ServerDetailPage />
    </ServerTabSlotsContext.Provider>
  );
}
