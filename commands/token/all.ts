import { createTokenCommand } from './create-token';
import { listTokensCommand } from './list-tokens';
import { revokeTokenCommand } from './revoke-token';

/** Every command of the "token" domain (personal API tokens); commands/index.ts collects the domains. */
export const tokenCommands = [createTokenCommand, revokeTokenCommand, listTokensCommand] as const;
