import { useEffect, useState } from 'react';
import { AGENT_TEXTS, type Credentials } from '../../../commands/agent/agent-steps';
import type { CommandResult } from '../../../commands/define-command';
import { RELOAD_DELAY_MS } from '../../../server/contract/agent';
import type { Server } from '../../../server/contract/servers';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { cx } from '../../components/ui/cx';
import { toast } from '../../components/ui/toast';
import { useCommandRunner } from '../../app/command-host/run-command';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { Icon } from '../../components/ui/icons';

/** SPEC §2 Configure Agent: the four steps of the wizard. */
export const STEPS = ['Generate Credentials', 'Install Agent', 'Check Port Status', 'Finish'] as const;

type StepCommand = 'agent.create-key' | 'agent.check-install' | 'agent.check-port' | 'agent.finish-setup';
const NO_FIELDS = {};

/** Where the page goes once configured: the same server without `?configure`, loaded afresh. */
function reloadTarget(): string {
  const url = new URL(window.location.href);
  url.searchParams.delete('configure');
  return url.pathname + url.search + url.hash;
}

/**
 * SPEC §4 Agent setup: each step advances only on success. Every button runs a command
 * (agent.create-key, agent.check-install, agent.check-port, agent.finish-setup), the same
 * steps `agent.configure` walks on the command line.
 */
export function AgentWizard({ server }: { server: Server }) {
  const runner = useCommandRunner();
  const [step, setStep] = useState(0);
  const [credentials, setCredentials] = useState<Credentials | null>(null);
  const [notInstalled, setNotInstalled] = useState(false);
  const [portOk, setPortOk] = useState(false);
  const refused = runner.check('agent.create-key');

  // SPEC §8: the first three steps announce a failure as an error notification with its message.
  const generate = useStep('agent.create-key', server, (result) => {
    setCredentials(result.data as Credentials);
    setStep(1);
  });
  const verifyInstall = useStep('agent.check-install', server, (result) => {
    const { installed } = result.data as { installed: boolean };
    setNotInstalled(!installed);
    if (installed) setStep(2);
  });
  const checkPort = useStep('agent.check-port', server, () => {
    setPortOk(true);
    toast('success', AGENT_TEXTS.portOk);
    setStep(3);
  });
  // Finish says its failure in the step itself, with Retry; a declined confirmation leaves it as it was.
  const configure = useStep('agent.finish-setup', server, () => undefined, false);
  const finish = configure.busy ? 'configuring' : configure.done ? 'done' : configure.formError !== null ? 'failed' : 'idle';
  const busy = generate.busy || verifyInstall.busy || checkPort.busy;
  const portError = checkPort.formError;

  useEffect(() => {
    if (finish !== 'done') return;
    const timer = setTimeout(() => window.location.assign(reloadTarget()), RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [finish]);

  const windows = server.operating_system === 'windows';
  const commands = credentials ? (windows ? [['Windows (PowerShell as Administrator)', credentials.commands.windows], ['Linux', credentials.commands.linux]] : [['Linux', credentials.commands.linux], ['Windows (PowerShell as Administrator)', credentials.commands.windows]]) : [];

  return (
    <div className="space-y-5">
      <ol aria-label="Steps" className="flex flex-wrap gap-2">
        {STEPS.map((name, i) => (
          <li
            key={name}
            aria-current={i === step ? 'step' : undefined}
            className={cx(
              'flex items-center gap-2 rounded-full border px-3 py-1 text-sm',
              i === step ? 'border-blue-500 font-medium text-blue-700 dark:text-blue-300' : i < step ? 'border-green-300 text-green-700 dark:border-green-800 dark:text-green-400' : 'border-slate-200 text-slate-500 dark:border-slate-700 dark:text-slate-400',
            )}
          >
            <span aria-hidden className={cx('flex h-5 w-5 items-center justify-center rounded-full text-xs', i < step ? 'bg-green-700 text-white' : i === step ? 'bg-blue-600 text-white' : 'bg-slate-200 dark:bg-slate-700')}>
              {i < step ? <Icon name="done" /> : i + 1}
            </span>
            {name}
            {i < step && <span className="sr-only">(done)</span>}
          </li>
        ))}
      </ol>

      {step === 0 && (
        <StepBody title="Generate Credentials">
          <p>
            Creates an API key for <strong>{server.hostname}</strong>. The installer presents it to tell this console that the agent runs. Keys can be revoked later (<code>agent.revoke-key</code>).
          </p>
          <div>
            <Button variant="primary" onPress={() => void generate.submit()} isDisabled={busy} disabledReason={refused === true ? false : refused}>
              {busy ? 'Generating…' : 'Generate Credentials'}
            </Button>
          </div>
        </StepBody>
      )}

      {step === 1 && credentials && (
        <StepBody title="Install Agent">
          <p>
            Run the command on <strong>{server.hostname}</strong>. It installs the Prometheus {windows ? 'windows_exporter' : 'node exporter'}, runs it on port {server.agentPort} and reports back with the key{' '}
            <code>{credentials.prefix}…</code>.
          </p>
          {commands.map(([label, command]) => (
            <div key={label} className="space-y-1">
              <div className="flex items-center gap-2 text-sm font-medium">
                {label}
                <CopyButton value={command!} label={`${label} install command`} />
              </div>
              <pre aria-label={`${label} install command`} className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs whitespace-pre-wrap break-all text-slate-100">
                {command}
              </pre>
            </div>
          ))}
          {notInstalled && (
            <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
              <p className="font-semibold">{AGENT_TEXTS.notInstalledTitle}</p>
              <p>{AGENT_TEXTS.notInstalledText}</p>
            </div>
          )}
          <div className="flex gap-2">
            <Button variant="primary" onPress={() => void verifyInstall.submit()} isDisabled={busy}>
              {busy ? 'Checking…' : 'Next'}
            </Button>
          </div>
        </StepBody>
      )}

      {step === 2 && (
        <StepBody title="Check Port Status">
          <p>
            The console connects to {server.ipaddress}:{server.agentPort}. A firewall between them must let it through.
          </p>
          {portError && (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
              {portError}
            </div>
          )}
          <div>
            <Button variant="primary" onPress={() => void checkPort.submit()} isDisabled={busy}>
              {busy ? 'Checking…' : 'Check Port'}
            </Button>
          </div>
        </StepBody>
      )}

      {step === 3 && (
        <StepBody title="Finish">
          {portOk && finish === 'idle' && <p className="text-green-700 dark:text-green-400">{AGENT_TEXTS.portOk}</p>}
          {finish === 'idle' && (
            <>
              <p>The console will start collecting metrics from {server.hostname} and give it the default alert rules.</p>
              <div>
                <Button variant="primary" onPress={() => void configure.submit()}>
                  Finish
                </Button>
              </div>
            </>
          )}
          {finish === 'configuring' && (
            <p role="status" aria-busy="true" className="flex items-center gap-2">
              <span aria-hidden className="h-4 w-4 animate-spin rounded-full border-2 border-blue-600 border-t-transparent" />
              {AGENT_TEXTS.configuring}
            </p>
          )}
          {finish === 'done' && (
            <div role="status" className="flex flex-col items-center gap-1 py-4 text-center">
              <span aria-hidden className="flex h-12 w-12 items-center justify-center rounded-full bg-green-100 text-2xl text-green-700 dark:bg-green-950 dark:text-green-300">
                <Icon name="done" />
              </span>
              <p className="text-lg font-semibold">{AGENT_TEXTS.configured}</p>
              <p className="text-sm text-slate-600 dark:text-slate-400">{AGENT_TEXTS.reloading}</p>
            </div>
          )}
          {finish === 'failed' && (
            <div role="alert" className="flex flex-col items-center gap-2 py-4 text-center">
              <p className="text-lg font-semibold text-red-700 dark:text-red-400">{AGENT_TEXTS.configureFailed}</p>
              <p className="text-sm">{configure.formError}</p>
              <Button variant="primary" onPress={() => void configure.submit()}>
                Retry
              </Button>
            </div>
          )}
        </StepBody>
      )}
    </div>
  );
}

/**
 * One step's button. A step has no fields, but it is a form of the kit all the same: its input
 * (`{ server }`) is checked with the command's schema, the run goes through the gate and its
 * failure comes back to the step, so the wizard says it in its own words and places; a second
 * press while the run is on its way does nothing. `announce`: a failure is also an error
 * notification.
 */
function useStep<K extends StepCommand>(command: K, server: Server, onDone: (result: CommandResult) => void, announce = true) {
  return useCommandForm<K, typeof NO_FIELDS, never>(command, {
    initial: NO_FIELDS,
    toInput: () => ({}),
    fixed: { server: server._id },
    field: () => undefined,
    onDone: (result) => onDone(result!),
    onFailure: announce ? (text) => toast('error', text) : undefined,
  });
}

function StepBody({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section aria-label={title} className="space-y-3 text-sm">
      <h3 className="text-base font-semibold">{title}</h3>
      {children}
    </section>
  );
}
