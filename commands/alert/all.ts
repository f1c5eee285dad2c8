import { ackAlertCommand } from './ack-alert';
import { deleteAlert } from './delete-alert';
import { noteAlert } from './note-alert';
import { reopenAlert } from './reopen-alert';
import { resolveAlertCommand } from './resolve-alert';
import { showAlert } from './show-alert';
import { snoozeAlert } from './snooze-alert';
import { unackAlertCommand } from './unack-alert';

/** Every command of the "alert" domain (one alert: show, triage, delete); commands/index.ts collects the domains. */
export const alertCommands = [showAlert, resolveAlertCommand, snoozeAlert, reopenAlert, noteAlert, ackAlertCommand, unackAlertCommand, deleteAlert] as const;
