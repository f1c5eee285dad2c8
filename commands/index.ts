import { alertCommands } from './alert/all';
import { aliasCommands } from './alias/all';
import { alertsCommands } from './alerts/all';
import { checkCommands } from './check/all';
import { contactCommands } from './contact/all';
import { groupCommands } from './group/all';
import { rulesCommands } from './rules/all';
import { dashboardCommands } from './dashboard/all';
import { widgetCommands } from './widget/all';
import { agentCommands } from './agent/all';
import { incidentCommands } from './incident/all';
import { maintenanceCommands } from './maintenance/all';
import { oncallCommands } from './oncall/all';
import { silenceCommands } from './silence/all';
import { statusCommands } from './status/all';
import { monitoringCommands } from './monitoring/all';
import { historyCommands } from './history/all';
import { listCommands } from './list/all';
import { marksCommands } from './marks/all';
import { navCommands } from './nav/all';
import { paletteCommands } from './palette/all';
import type { InputOf } from './define-command';
import { createRegistry } from './registry';
import { serverCommands } from './server/all';
import { serverViewCommands } from './server-view/all';
import { sessionCommands } from './session/all';
import { tokenCommands } from './token/all';
import { integrationCommands } from './integration/all';
import { userCommands } from './user/all';

/** The list of all commands. Domains own their lists; this file only joins them. */
export const allCommands = [...navCommands, ...sessionCommands, ...paletteCommands, ...userCommands, ...serverCommands, ...serverViewCommands, ...checkCommands, ...historyCommands, ...alertCommands, ...alertsCommands, ...groupCommands, ...rulesCommands, ...dashboardCommands, ...widgetCommands, ...agentCommands, ...incidentCommands, ...aliasCommands, ...monitoringCommands, ...silenceCommands, ...maintenanceCommands, ...oncallCommands, ...statusCommands, ...tokenCommands, ...contactCommands, ...integrationCommands, ...listCommands, ...marksCommands] as const;

/** Every command of the app, as a union of their definitions. */
export type AppCommand = (typeof allCommands)[number];
/** The closed union of command ids. */
export type CommandId = AppCommand['id'];
/** What `run(id, input)` takes for command `K`: the input side of its zod schema. */
export type CommandInput<K extends CommandId> = InputOf<AppCommand, K>;

// A command whose id is typed as plain `string` would turn CommandId into `string` and untype every run.
const idsAreLiterals: string extends CommandId ? false : true = true;
void idsAreLiterals;

/** A registry holding every command (the app makes one; tests make their own). */
export function createAppRegistry(options?: Parameters<typeof createRegistry>[0]) {
  const registry = createRegistry<AppCommand>(options);
  for (const command of allCommands) registry.register(command);
  return registry;
}
