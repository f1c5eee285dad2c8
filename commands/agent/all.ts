import { checkInstall } from './check-install';
import { checkPort } from './check-port';
import { configureAgent } from './configure-agent';
import { createKey } from './create-key';
import { finishSetup } from './finish-setup';
import { revokeKey } from './revoke-key';

/** Every command of the "agent" domain (SPEC §4 set-up steps, the whole walk, key revocation); commands/index.ts collects the domains. */
export const agentCommands = [configureAgent, createKey, checkInstall, checkPort, finishSetup, revokeKey] as const;
