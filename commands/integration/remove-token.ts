import { z } from 'zod';
import { removeReceiverToken } from '../../src/api/integrations';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';

/** Issue 15 §3: removes the admin-created receiver token; without ALERTMANAGER_RECEIVER_TOKEN the receiver is then off. */
export const removeReceiverTokenCommand = defineCommand({
  id: 'integration.remove-token',
  title: 'Remove Alertmanager receiver token',
  category: 'Integrations',
  description: 'Remove the receiver token created here: Alertmanager’s notifications with it are refused from then on.',
  input: z.object({}).strict(),
  permission: 'settings.write',
  destructive: { title: 'Remove Receiver Token', message: () => 'Remove the Alertmanager receiver token? Alertmanager’s notifications with it are refused at once.', confirmLabel: 'Remove', cancelLabel: 'Cancel' },
  async run(_input, ctx) {
    await removeReceiverToken(ctx.api);
    await ctx.invalidate(queryKeys.integrations.alertmanager);
    return { message: 'Removed the Alertmanager receiver token.' };
  },
});
