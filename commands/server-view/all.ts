import { filterServices } from './filter-services';
import { refreshView } from './refresh-view';
import { setRefreshInterval } from './set-refresh-interval';
import { setTimeRange } from './set-time-range';
import { setTimezone } from './set-timezone';
import { showTab } from './show-tab';
import { switchServer } from './switch-server';
import { toggleMaintenance } from './toggle-maintenance';

/** Commands of the server detail view (maintenance, switch, tab, time range, time zone, refresh, services filter, refresh now). */
export const serverViewCommands = [toggleMaintenance, switchServer, showTab, setTimeRange, setTimezone, setRefreshInterval, filterServices, refreshView] as const;
