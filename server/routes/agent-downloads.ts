import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CLI_VERSION, DEFAULT_ARCH } from '../contract/agent';
import { endpoints } from '../contract/api-routes';
import { serve } from '../http/serve';
import { paths } from '../paths';

const read = (name: string) => readFileSync(join(paths.agentScripts, name), 'utf8');

/**
 * SPEC §7 "Agent download from {host}/cli/0.0.2/sb-cli, and sb-cli-{arch}.exe on Windows".
 * Public (the host that installs has no session; the install token is the credential). Linux
 * gets the real installer script; Windows gets a PowerShell installer, because we have no
 * signed executable to ship and will not serve a fake one (docs/decisions.md).
 */
export function registerAgentDownloads(app: FastifyInstance): void {
  const linux = read('sb-cli.sh');
  const windows = read('sb-cli.ps1');
  const base = `/cli/${CLI_VERSION}`;

  serve(app, endpoints['agent.linuxInstaller'], async ({ reply }) =>
    reply.header('content-type', 'text/x-shellscript; charset=utf-8').header('content-disposition', 'inline; filename="sb-cli"').header('cache-control', 'no-cache').send(linux),
  );
  serve(app, endpoints['agent.windowsInstaller'], async ({ reply }) =>
    reply.header('content-type', 'text/plain; charset=utf-8').header('content-disposition', 'inline; filename="sb-cli.ps1"').header('cache-control', 'no-cache').send(windows),
  );
  serve(app, endpoints['agent.otherFile'], async ({ params, reply }) => {
    const file = params.file;
    const exe = /^sb-cli-([A-Za-z0-9_]+)\.exe$/.exec(file);
    if (exe) {
      const arch = exe[1] || DEFAULT_ARCH;
      return reply
        .status(404)
        .type('text/plain; charset=utf-8')
        .send(
          `Opsdeck does not ship a Windows executable (sb-cli-${arch}.exe).\n` +
            `Install the agent with the PowerShell installer instead, in PowerShell as Administrator:\n\n` +
            `  & ([scriptblock]::Create((Invoke-RestMethod '<this console>${base}/sb-cli.ps1'))) install -Token '<token>' -Arch ${arch}\n\n` +
            `The console's Install Agent step shows this command with your token.\n`,
        );
    }
    return reply.status(404).type('text/plain; charset=utf-8').send(`No file ${file} in sb-cli ${CLI_VERSION}; the Linux installer is ${base}/sb-cli and the Windows one ${base}/sb-cli.ps1.\n`);
  });
  serve(app, endpoints['agent.otherVersion'], async ({ params, reply }) =>
    reply.status(404).type('text/plain; charset=utf-8').send(`sb-cli ${params.version} is not served here; this console serves version ${CLI_VERSION} at ${base}/sb-cli.\n`),
  );
}
