import { useEffect } from 'react';
import { DELETE_SERVER_ACKNOWLEDGEMENT } from '../../../commands/server/delete-server';
import { osLabels } from '../../../commands/server/server-fields';
import type { Server } from '../../../server/contract/servers';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/checkbox';
import { CopyButton } from '../../components/ui/copy-button';
import { Modal } from '../../components/ui/modal';
import { toast } from '../../components/ui/toast';
import { useCommandForm } from '../../app/command-host/use-command-form';
import { uninstallSteps } from './uninstall-steps';

/**
 * SPEC §2/§5: Delete is enabled only once the acknowledgement is ticked; the agent's uninstall
 * steps for the server's OS are listed. The dialog is the confirmation, so `server.delete` is
 * run with `acknowledge: true` and asks nothing more.
 */
export function DeleteServerDialog({ server, onClose }: { server: Server | null; onClose: () => void }) {
  // The dialog shows a failure in its body (every one above the buttons: the tick is its only field).
  const form = useCommandForm<'server.delete', { acknowledge: boolean }, never>('server.delete', {
    initial: { acknowledge: false },
    toInput: ({ acknowledge }) => ({ acknowledge }),
    fixed: { server: server?._id },
    field: () => undefined,
    onDone: () => {
      toast('success', `Deleted server ${server!.hostname}`);
      form.reset();
      onClose();
    },
  });
  const { busy, formError: error } = form;
  const acknowledged = form.values!.acknowledge;

  // A fresh dialog for every server: nothing ticked, no old error.
  useEffect(() => form.reset(), [server?._id]); // eslint-disable-line react-hooks/exhaustive-deps

  const close = () => {
    if (busy) return;
    form.reset();
    onClose();
  };

  const remove = () => {
    if (server && acknowledged) void form.submit();
  };

  const guide = server ? uninstallSteps(server) : null;
  return (
    <Modal
      title="Delete Server"
      isOpen={server !== null}
      onOpenChange={(open) => !open && close()}
      width={640}
      footer={
        <>
          <Button onPress={close} isDisabled={busy}>
            Cancel
          </Button>
          <Button variant="danger" isDisabled={!acknowledged || busy} onPress={remove}>
            {busy ? 'Deleting…' : 'Delete'}
          </Button>
        </>
      }
    >
      {server && guide && (
        <div className="space-y-4 text-sm">
          <p>
            Delete <strong>{server.hostname}</strong> ({server.ipaddress})? Its metrics, services and alert settings are removed with it, and it stops being
            monitored. This cannot be undone.
          </p>
          <section aria-labelledby="uninstall-heading">
            <h3 id="uninstall-heading" className="font-semibold">
              Uninstall the agent ({osLabels[server.operating_system]})
            </h3>
            <p className="mt-1 text-slate-600 dark:text-slate-400">Then remove the exporter from the host: run these in {guide.shell}.</p>
            <ol className="mt-2 list-decimal space-y-2 pl-5">
              {guide.steps.map((step) => (
                <li key={step.command}>
                  <span>{step.text}</span>
                  <div className="mt-1 flex items-center gap-1 rounded-md bg-slate-100 px-2 py-1 dark:bg-slate-800">
                    <code className="min-w-0 flex-1 overflow-x-auto font-mono text-xs whitespace-pre">{step.command}</code>
                    <CopyButton value={step.command} label={`command: ${step.text}`} />
                  </div>
                </li>
              ))}
            </ol>
          </section>
          <Checkbox isSelected={acknowledged} onChange={(on) => form.set('acknowledge', on)} isDisabled={busy}>
            {DELETE_SERVER_ACKNOWLEDGEMENT}
          </Checkbox>
          {error && (
            <p role="alert" className="text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
