import { z } from 'zod';
import { getAlertmanagerIntegration } from '../../src/api/integrations';
import { defineCommand } from '../define-command';
import { receiverUrl } from './receiver-url';

/**
 * Issue 15: Notifications › Integrations — the Alertmanager receiver (its URL and whether a token
 * is set) and the push (each ALERTMANAGER_URL instance, the last post, errors). The status was
 * API-only; this opens the screen and says the same in words.
 */
export const showIntegrationCommand = defineCommand({
  id: 'integration.show',
  title: 'Integrations',
  category: 'Integrations',
  description: 'Open Notifications › Integrations: the Alertmanager receiver URL and token status, and the push to each Alertmanager instance (last post, errors).',
  input: z.object({}).strict(),
  permission: 'read',
  history: false,
  async run(_input, ctx) {
    ctx.navigate('/notifications/integrations');
    const { result } = await getAlertmanagerIntegration(ctx.api);
    const r = result.receiver;
    const token = r.token ? `a token (\`${r.token.prefix}…\`, created by ${r.token.createdBy})` : 'no token created here';
    const receiver = r.enabled
      ? `Receiver on at \`${receiverUrl()}\`: ${token}${r.fromEnvironment ? ' and ALERTMANAGER_RECEIVER_TOKEN' : ''}.`
      : 'Receiver off: create a token with `integration.rotate-token` (or set ALERTMANAGER_RECEIVER_TOKEN).';
    const p = result.push;
    const push = p.urls.length
      ? `Push to ${p.urls.length} Alertmanager instance${p.urls.length === 1 ? '' : 's'}: ${p.instances.map((i) => `${i.url} ${i.ok === null ? 'not posted yet' : i.ok ? 'ok' : `failing (${i.lastError ?? 'no answer'})`}`).join('; ')}.`
      : 'Push off: set ALERTMANAGER_URL to post Opsdeck’s alerts to Alertmanager.';
    return { message: `${receiver}\n\n${push}`, data: result };
  },
});
