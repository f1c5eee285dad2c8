import { alertCommands } from './alert/all';
import { alertsCommands } from './alerts/all';
import { groupCommands } from './group/all';
import { rulesCommands } from './rules/all';
import { dashboardCommands } from './dashboard/all';
import { widgetCommands } from './widget/all';
import { agentCommands } from './agent/all';
import { incidentCommands } from './incident/all';
import { historyCommands } from './history/all';
import { navCommands } from './nav/all';
import { paletteCommands } from './palette/all';
import { createRegistry } from './registry';
import { serverCommands } from './server/all';
import { serverViewCommands } from './server-view/all';
import { sessionCommands } from './session/all';
import { userCommands } from './user/all';

/** The list of all commands. Domains own their lists; this file only joins them. */
export const allCommands = [...navCommands, ...sessionCommands, ...paletteCommands, ...userCommands, ...serverCommands, ...serverViewCommands, ...historyCommands, ...alertCommands, ...alertsCommands, ...groupCommands, ...rulesCommands, ...dashboardCommands, ...widgetCommands, ...agentCommands, ...incidentCommands] as const;

export type CommandId = (typeof allCommands)[number]['id'];

/** A registry holding every command (the app makes one; tests make their own). */
export function createAppRegistry() {
  const registry = createRegistry();
  for (const command of allCommands) registry.register(command);
  return registry;
}
