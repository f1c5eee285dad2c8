import { queryOptions } from '@tanstack/react-query';
import type { ContactMethodInput, NotificationRuleInput } from '../../server/contract/contact-methods';
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

/** A person's notification rules: the steps their methods are paged in (the default when none are set). */
export const listNotificationRules = (api: Api, userId: string) => call(api, 'notificationRules.list', { params: { id: userId } });
export const addNotificationRule = (api: Api, userId: string, body: NotificationRuleInput) => call(api, 'notificationRules.create', { params: { id: userId }, body });
export const removeNotificationRule = (api: Api, userId: string, rule: string) => call(api, 'notificationRules.remove', { params: { id: userId, rule } });
export const notificationRulesQueryOptions = (userId: string) => queryOptions({ queryKey: queryKeys.notificationRules.of(userId), queryFn: () => listNotificationRules(defaultApi, userId) });
