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
  prepare: async (input, ctx) => ({ ...input, server: (await resolveServer(ctx.api, input.server))._id }),
  async run({ server }, ctx) {
    const found = await resolveServer(ctx.api, server);
    const result = await finish(ctx, found);
    return { message: `${AGENT_TEXTS.configured} (**${result.hostname}**)`, data: result };
  },
});
