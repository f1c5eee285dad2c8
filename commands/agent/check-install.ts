import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { agentInstalled, AGENT_TEXTS } from './agent-steps';

/**
 * SPEC §4 step 2 (Install Agent): has the installer reported back? "Not yet" is an answer, not a
 * failure: the wizard shows SPEC's warning and the person tries again after running the command.
 */
export const checkInstall = defineCommand({
  id: 'agent.check-install',
  title: 'Check agent installation',
  category: 'Agent',
  description: 'Says whether the installer on the server has reported back.',
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'servers.write',
  history: false,
  // The server is found once: the run acts on what was resolved here.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run(_input, ctx, found) {
    const { installed } = await agentInstalled(ctx, found._id);
    return {
      message: installed ? `The agent is installed on **${found.hostname}**.` : `**${AGENT_TEXTS.notInstalledTitle}**: ${AGENT_TEXTS.notInstalledText}`,
      data: { installed },
    };
  },
});
