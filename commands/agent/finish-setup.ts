import { z } from 'zod';
import { defineCommand } from '../define-command';
import { resolveServer } from '../server/resolve-server';
import { AGENT_TEXTS, finishSetup as finish } from './agent-steps';

/** SPEC §4 step 4 (Finish): mark the agent configured; scraping and default alert rules start. */
export const finishSetup = defineCommand({
  id: 'agent.finish-setup',
  title: 'Finish agent set-up',
  category: 'Agent',
  description: "Marks the server's agent as configured so the console starts collecting its metrics.",
  input: z.object({ server: z.string().trim().min(1, 'server is required') }),
  args: [{ name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true }],
  permission: 'servers.write',
  // The server is found once: the run acts on what was resolved here.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run(_input, ctx, found) {
    const result = await finish(ctx, found);
    return { message: `${AGENT_TEXTS.configured} (**${result.hostname}**)`, data: result };
  },
});
