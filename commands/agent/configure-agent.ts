import { z } from 'zod';
import { RELOAD_DELAY_MS } from '../../server/contract/agent';
import { serverDetailHref } from '../../src/lib/server-view';
import { defineCommand } from '../define-command';
import { CommandError } from '../registry';
import { resolveServer } from '../server/resolve-server';
import { agentInstalled, AGENT_TEXTS, checkPort, finishSetup, generateCredentials, mdCode } from './agent-steps';

const POLL_MS = RELOAD_DELAY_MS;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SPEC §4 from the command line: the wizard's four steps in one run. Creates the key and prints
 * the install command (as progress, so it shows before the wait), waits for the installer to
 * report, checks the port, and marks the agent configured. Where nothing can show progress
 * (palette, hotkeys) it opens the wizard instead.
 */
export const configureAgent = defineCommand({
  id: 'agent.configure',
  title: 'Configure monitoring agent',
  category: 'Agent',
  description: 'Walks the agent set-up: credentials, install command, wait for the install, port check, finish.',
  input: z.object({
    server: z.string().trim().min(1, 'server is required'),
    /** Seconds to wait for the installer to report. */
    wait: z.coerce.number().int('wait must be whole seconds').min(0).max(3600).default(300),
  }),
  args: [
    { name: 'server', label: 'Server', kind: 'entity', entity: 'server', positional: true },
    { name: 'wait', label: 'Seconds to wait for the install (default 300)', kind: 'number', optional: true },
  ],
  permission: 'servers.write',
  // It waits for one install and prints its command: one server at a time, never over marked rows.
  bulk: false,
  // The server is found once: the run acts on what was resolved here.
  prepare: (input, ctx) => resolveServer(ctx.api, input.server),
  async run({ wait }, ctx, found) {
    if (found.status === 'suspended') throw new CommandError(`${found.hostname} is suspended: its agent cannot be configured`);
    if (found.isAgentConfigured) return { message: `The agent of **${found.hostname}** is already configured.`, data: found };

    let installed = found.isAgentInstalled;
    if (!installed && !ctx.progress) {
      // The palette and links show only a brief final notice: a wait of minutes there would look
      // like a hang and the install command would vanish, so open the wizard instead.
      ctx.navigate(serverDetailHref(found._id, { configure: 1 }));
      return { message: `Opened the agent set-up of **${found.hostname}**.` };
    }
    if (installed) {
      ctx.progress?.(`Steps 1–2: The agent is already installed on **${found.hostname}**.`);
    } else {
      const credentials = await generateCredentials(ctx, found);
      const command = found.operating_system === 'windows' ? credentials.commands.windows : credentials.commands.linux;
      ctx.progress?.(`Step 1: Credentials generated (key ${mdCode(`${credentials.prefix}…`)}).`);
      ctx.progress?.(`Step 2: Run this on **${found.hostname}**${found.operating_system === 'windows' ? ' (PowerShell as Administrator)' : ''}:\n\n${mdCode(command)}\n\nWaiting up to ${wait} s for the installer to report…`);
      const deadline = Date.now() + wait * 1000;
      while (!installed && Date.now() < deadline) {
        await sleep(Math.min(POLL_MS, Math.max(0, deadline - Date.now())));
        installed = (await agentInstalled(ctx, found._id)).installed;
      }
      if (!installed) throw new CommandError(`${AGENT_TEXTS.notInstalledTitle}: ${AGENT_TEXTS.notInstalledText} (waited ${wait} s; run agent.configure ${found.hostname} again once the installer has finished)`);
      ctx.progress?.('The installer reported back.');
    }

    await checkPort(ctx, found);
    ctx.progress?.(`Step 3: ${AGENT_TEXTS.portOk} (${found.ipaddress}:${found.agentPort}).`);
    ctx.progress?.(`Step 4: ${AGENT_TEXTS.configuring}`);
    try {
      const result = await finishSetup(ctx, found);
      return { message: `${AGENT_TEXTS.configured} (**${result.hostname}**)`, data: result };
    } catch (err) {
      throw new CommandError(`${AGENT_TEXTS.configureFailed} ${err instanceof Error ? err.message : String(err)}`);
    }
  },
});
