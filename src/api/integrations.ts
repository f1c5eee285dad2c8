import { queryOptions } from '@tanstack/react-query';
import { endpoints } from '../../server/contract/api-routes';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 15 §2–3: the push to Alertmanager (instances, last post, errors) and the receiver (its token, never the secret). */
export const getAlertmanagerIntegration = (api: Api) => call(api, 'alertmanager.status');
/** Answers the new receiver token once, in `result.token`; the previous one stops working. */
export const createReceiverToken = (api: Api) => call(api, 'alertmanager.createToken');
export const removeReceiverToken = (api: Api) => call(api, 'alertmanager.removeToken');

export const alertmanagerIntegrationQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.integrations.alertmanager, queryFn: () => getAlertmanagerIntegration(defaultApi) });

/** Where Alertmanager's webhook_config points: this console's own origin (the browser's, or PUBLIC_URL when the command runs elsewhere). */
export const receiverPath: string = endpoints['alertmanager.receive'].path;
