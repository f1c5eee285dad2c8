import { queryOptions } from '@tanstack/react-query';
import type { IntegrationsStatus, ReceiverToken } from '../../server/contract/alertmanager';
import type { OneResult } from '../../server/contract/common';
import { api as defaultApi, type Api } from './client';
import { queryKeys } from './query-keys';

/** Issue 15 §2–3: the push to Alertmanager (instances, last post, errors) and the receiver (its token, never the secret). */
export const getAlertmanagerIntegration = (api: Api) => api.get<OneResult<IntegrationsStatus>>('integrations/alertmanager');
/** Answers the new receiver token once, in `result.token`; the previous one stops working. */
export const createReceiverToken = (api: Api) => api.post<OneResult<ReceiverToken>>('integrations/alertmanager/token');
export const removeReceiverToken = (api: Api) => api.delete<OneResult<{ removed: true }>>('integrations/alertmanager/token');

export const alertmanagerIntegrationQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.integrations.alertmanager, queryFn: () => getAlertmanagerIntegration(defaultApi) });

/** Where Alertmanager's webhook_config points: this console's own origin (the browser's, or PUBLIC_URL when the command runs elsewhere). */
export const receiverPath = '/api/integrations/alertmanager';
