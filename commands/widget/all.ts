/** Every command of the "widget" domain; commands/index.ts collects the domains. */
export const widgetCommands = [] as const;
