import { reportIncident } from './report-incident';

/** Every command of the "incident" domain; commands/index.ts collects the domains. */
export const incidentCommands = [reportIncident] as const;
