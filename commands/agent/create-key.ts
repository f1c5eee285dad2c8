import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { generateCredentials, mdCode } from './agent-steps';

/** SPEC §4 step 1 (Generate Credentials): a new API key for the server and its install command. */
export const createKey = defineCommand({
  id: 'agent.create-key',
  title: 'Generate agent credentials',
  category: 'Agent',
  description: 'Creates an API key for a server and prints the command that installs its agent.',
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'servers.write',
  // The server is found once: the run acts on what was resolved here.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run(_input, ctx, found) {
    const credentials = await generateCredentials(ctx, found);
    const command = found.operating_system === 'windows' ? credentials.commands.windows : credentials.commands.linux;
    return {
      message: `Key ${mdCode(`${credentials.prefix}…`)} created for **${found.hostname}**. Install the agent on it with:\n\n${mdCode(command)}`,
      data: credentials,
    };
  },
});
