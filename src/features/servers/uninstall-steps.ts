import { DEFAULT_AGENT_PORT, type Server } from '../../../server/contract/servers';

export interface UninstallStep {
  text: string;
  command: string;
}

/**
 * SPEC §2 delete dialog: how to remove the agent from the host once the server is gone.
 * Linux: stop and remove the node exporter service and files, reload the daemon.
 * Windows: stop and delete the service, remove the directory, remove the firewall rule of the port.
 */
export function uninstallSteps(server: Pick<Server, 'operating_system' | 'agentPort'>): { shell: string; steps: UninstallStep[] } {
  const port = server.agentPort || DEFAULT_AGENT_PORT;
  if (server.operating_system === 'windows') {
    return {
      shell: 'PowerShell, as Administrator',
      steps: [
        { text: 'Stop the exporter service', command: 'Stop-Service windows_exporter' },
        { text: 'Delete the service', command: 'sc.exe delete windows_exporter' },
        { text: 'Remove the install directory', command: "Remove-Item -Recurse -Force 'C:\\Program Files\\windows_exporter'" },
        { text: `Remove the firewall rule for port ${port}`, command: `Remove-NetFirewallRule -DisplayName 'windows_exporter (TCP ${port})'` },
      ],
    };
  }
  return {
    shell: 'a terminal on the server',
    steps: [
      { text: 'Stop the node exporter service', command: 'sudo systemctl stop node_exporter' },
      { text: 'Disable it at boot', command: 'sudo systemctl disable node_exporter' },
      { text: 'Remove the service file', command: 'sudo rm /etc/systemd/system/node_exporter.service' },
      { text: 'Remove the binary', command: 'sudo rm /usr/local/bin/node_exporter' },
      { text: 'Reload the systemd daemon', command: 'sudo systemctl daemon-reload' },
    ],
  };
}
