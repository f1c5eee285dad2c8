import { installCommand, type CreatedApiKey } from '../../server/contract/agent';
import type { Server } from '../../server/contract/servers';
import { checkPortAccess, createApiKey, updateAgentConfigureStatus } from '../../src/api/agent';
import { ApiError } from '../../src/api/client';
import { queryKeys, staleAfter } from '../../src/api/query-keys';
import { getServer } from '../../src/api/servers';
import type { CommandContext } from '../define-command';
import { CommandError } from '../registry';
import { invalidateAll } from '../stale';

/**
 * The four steps of SPEC §4 Agent setup, shared by the wizard's step commands and by
 * `agent.configure`, which walks them all from the command line. The texts are SPEC's.
 */
export const AGENT_TEXTS = {
  notInstalledTitle: 'Agent not configured',
  notInstalledText: 'The agent is not configured yet. Please try again later.',
  portOk: 'Port is accessible',
  configuring: 'Configuring Monitoring Agent...',
  configured: 'Successfully Configured Monitoring Agent!',
  reloading: 'Refreshing the page, please wait.',
  configureFailed: 'Failed to Configure Monitoring Agent!',
} as const;

export interface Credentials extends CreatedApiKey {
  /** The copyable install command for each OS; the server's own OS first in the wizard. */
  commands: { linux: string; windows: string };
}

/** Step 1: a fresh key with the four privileges SPEC names, and the install commands built from it. */
export async function generateCredentials(ctx: CommandContext, server: Server): Promise<Credentials> {
  const { data } = await createApiKey(ctx.api, server._id);
  return { ...data, commands: { linux: installCommand('linux', data.apiUrl, data.token), windows: installCommand('windows', data.apiUrl, data.token) } };
}

/** Step 2: has the installer reported back? */
export async function agentInstalled(ctx: CommandContext, serverId: string): Promise<{ installed: boolean; server: Server }> {
  const { result } = await getServer(ctx.api, serverId);
  return { installed: result.isAgentInstalled, server: result };
}

/** Step 3: the console's own TCP connect to the agent port; a closed port throws the server's reason. */
export async function checkPort(ctx: CommandContext, server: Server): Promise<void> {
  try {
    await checkPortAccess(ctx.api, server._id);
  } catch (err) {
    if (err instanceof ApiError && err.status !== 401 && err.status !== 403) throw new CommandError(err.message);
    throw err;
  }
}

/** Step 4: the agent is configured; the console starts scraping and gives the default alert rules. */
export async function finishSetup(ctx: CommandContext, server: Server): Promise<Server> {
  const res = await updateAgentConfigureStatus(ctx.api, server._id);
  await invalidateAll(ctx, [...staleAfter.server, queryKeys.alertConfig.server(server._id)]);
  return res.result;
}

export const mdCode = (text: string) => `\`${text.replace(/`/g, 'ˋ')}\``;
