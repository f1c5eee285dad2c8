import { historyCommands } from './history/all';
import { navCommands } from './nav/all';
import { paletteCommands } from './palette/all';
import { createRegistry } from './registry';
import { sessionCommands } from './session/all';
import { userCommands } from './user/all';

/** The list of all commands. Domains own their lists; this file only joins them. */
export const allCommands = [...navCommands, ...sessionCommands, ...paletteCommands, ...userCommands, ...historyCommands] as const;

export type CommandId = (typeof allCommands)[number]['id'];

/** A registry holding every command (the app makes one; tests make their own). */
export function createAppRegistry() {
  const registry = createRegistry();
  for (const command of allCommands) registry.register(command);
  return registry;
}
