import { removeReceiverTokenCommand } from './remove-token';
import { rotateReceiverTokenCommand } from './rotate-token';
import { showIntegrationCommand } from './show-integration';

/** Every command of the "integration" domain (Alertmanager both ways); commands/index.ts collects the domains. */
export const integrationCommands = [showIntegrationCommand, rotateReceiverTokenCommand, removeReceiverTokenCommand] as const;
