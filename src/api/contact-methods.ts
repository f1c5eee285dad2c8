import { queryOptions } from '@tanstack/react-query';
import type { ContactMethodInput } from '../../server/contract/contact-methods';
import { api as defaultApi, type Api } from './client';
import { call } from './call';
import { queryKeys } from './query-keys';

/** Issue 27 §2: a person's contact methods (one's own; anyone's for an admin). */
export const listContactMethods = (api: Api, userId: string) => call(api, 'contactMethods.list', { params: { id: userId } });
export const addContactMethod = (api: Api, userId: string, body: ContactMethodInput) => call(api, 'contactMethods.create', { params: { id: userId }, body });
export const removeContactMethod = (api: Api, userId: string, method: string) => call(api, 'contactMethods.remove', { params: { id: userId, method } });
/** Sends a test message with a verification code; the answer says whether the provider took it. */
export const testContactMethod = (api: Api, userId: string, method: string) => call(api, 'contactMethods.test', { params: { id: userId, method } });
export const verifyContactMethod = (api: Api, userId: string, method: string, code: string) => call(api, 'contactMethods.verify', { params: { id: userId, method }, body: { code } });

export const contactMethodsQueryOptions = (userId: string) => queryOptions({ queryKey: queryKeys.contactMethods.of(userId), queryFn: () => listContactMethods(defaultApi, userId) });
