/** Every command of the "dashboard" domain; commands/index.ts collects the domains. */
export const dashboardCommands = [] as const;
