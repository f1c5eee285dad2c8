import type { ApiKeyInfo, ApiKeyPrivilege, CreatedApiKey } from '../../server/contract/agent';
import type { ListResult, OneResult } from '../../server/contract/common';
import type { Server } from '../../server/contract/servers';
import type { Api } from './client';

const id = (s: string) => encodeURIComponent(s);

/** SPEC §7 Servers, agent calls: the key for the installer, the port check, the final switch. */
export const createApiKey = (api: Api, serverId: string, privilages: ApiKeyPrivilege[] = ['CREATE', 'READ', 'UPDATE', 'DELETE']) =>
  api.post<{ data: CreatedApiKey }>('cli/create_api_key', { privilages, serverId });
export const listApiKeys = (api: Api, serverId: string) => api.get<ListResult<ApiKeyInfo>>('cli/api_keys', { query: { serverId } });
export const revokeApiKey = (api: Api, keyId: string) => api.delete<OneResult<{ _id: string; prefix: string; serverId: string; revokedAt: string }>>(`cli/api_keys/${id(keyId)}`);
/** Answers `{ isPortAccessible: true }`; a closed port is an ApiError whose message says why (SPEC §8). */
export const checkPortAccess = (api: Api, serverId: string) => api.get<{ isPortAccessible: boolean }>(`servers/check-port-access/${id(serverId)}`);
export const updateAgentConfigureStatus = (api: Api, serverId: string) =>
  api.patch<{ isAgentConfigured: boolean; result: Server }>(`servers/update-agent-configure-status/${id(serverId)}`);
