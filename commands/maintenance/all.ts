import { createWindowCommand } from './create-window';
import { deleteWindowCommand } from './delete-window';
import { editWindowCommand } from './edit-window';
import { calendarCommand, listWindowsCommand } from './show-windows';

/** Every command of the "maintenance" domain (issue 14 §3); commands/index.ts collects the domains. */
export const maintenanceCommands = [listWindowsCommand, calendarCommand, createWindowCommand, editWindowCommand, deleteWindowCommand] as const;
