import { receiverPath } from '../../src/api/integrations';

/** The receiver's URL as Alertmanager should call it: this console's address as the person reaches it. */
export const receiverUrl = () => `${globalThis.location?.origin ?? ''}${receiverPath}`;
