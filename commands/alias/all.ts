import { listAliasesCommand } from './list-aliases';
import { removeAlias } from './remove-alias';
import { setAlias } from './set-alias';

/** Every command of the "alias" domain; commands/index.ts collects the domains. */
export const aliasCommands = [setAlias, removeAlias, listAliasesCommand] as const;
