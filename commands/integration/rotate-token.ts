import { z } from 'zod';
import { createReceiverToken } from '../../src/api/integrations';
import { queryKeys } from '../../src/api/query-keys';
import { defineCommand } from '../define-command';
import { receiverUrl } from './receiver-url';

/**
 * Issue 15 §3: creates the Alertmanager receiver's token, or replaces it (rotation without a
 * restart). Shown once: the server keeps only its SHA-256. The old token stops working at once,
 * so it asks first.
 */
export const rotateReceiverTokenCommand = defineCommand({
  id: 'integration.rotate-token',
  title: 'Rotate Alertmanager receiver token',
  category: 'Integrations',
  description: 'Create the token Alertmanager sends to Opsdeck’s receiver, or replace it. Shown once; the previous token stops working at once.',
  input: z.object({}).strict(),
  permission: 'settings.write',
  destructive: {
    title: 'Rotate Receiver Token',
    message: () => 'Create a new Alertmanager receiver token? A token created before stops working at once: Alertmanager needs the new one.',
    confirmLabel: 'Rotate',
    cancelLabel: 'Cancel',
  },
  async run(_input, ctx) {
    const { result } = await createReceiverToken(ctx.api);
    await ctx.invalidate(queryKeys.integrations.alertmanager);
    return {
      message: `Alertmanager receiver token: \`${result.token}\`\n\nCopy it now: it is not shown again. In Alertmanager's \`webhook_configs\` use url \`${receiverUrl()}\` with \`http_config.authorization.credentials\` set to it.`,
      data: result,
    };
  },
});
