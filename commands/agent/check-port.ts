import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { AGENT_TEXTS, checkPort as checkAgentPort } from './agent-steps';

/** SPEC §4 step 3 (Check Port Status): can the console reach the agent port? */
export const checkPort = defineCommand({
  id: 'agent.check-port',
  title: 'Check agent port',
  category: 'Agent',
  description: "Connects from the console to the server's agent port (TCP, 3 s).",
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'servers.write',
  history: false,
  // The server is found once: the run acts on what was resolved here.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run(_input, ctx, found) {
    await checkAgentPort(ctx, found);
    return { message: `${AGENT_TEXTS.portOk} (${found.ipaddress}:${found.agentPort}).`, data: { isPortAccessible: true } };
  },
});
