import { refreshDashboard } from './refresh-dashboard';
import { setThreshold } from './set-threshold';

/** Every command of the "dashboard" domain; commands/index.ts collects the domains. */
export const dashboardCommands = [refreshDashboard, setThreshold] as const;
