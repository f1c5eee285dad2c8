import type { ApiKeyPrivilege } from '../../server/contract/agent';
import type { Api } from './client';
import { call } from './call';

/** SPEC §7 Servers, agent calls: the key for the installer, the port check, the final switch. */
export const createApiKey = (api: Api, serverId: string, privilages: ApiKeyPrivilege[] = ['CREATE', 'READ', 'UPDATE', 'DELETE']) =>
  call(api, 'agent.createKey', { body: { privilages, serverId } });
export const listApiKeys = (api: Api, serverId: string) => call(api, 'agent.keys', { query: { serverId } });
export const revokeApiKey = (api: Api, keyId: string) => call(api, 'agent.revokeKey', { params: { id: keyId } });
/** Answers `{ isPortAccessible: true }`; a closed port is an ApiError whose message says why (SPEC §8). */
export const checkPortAccess = (api: Api, serverId: string) => call(api, 'agent.checkPort', { params: { id: serverId } });
export const updateAgentConfigureStatus = (api: Api, serverId: string) => call(api, 'agent.setConfigured', { params: { id: serverId } });
