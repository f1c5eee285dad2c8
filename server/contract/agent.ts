import { z } from 'zod';
import { str } from './common';
import { operatingSystemSchema } from './servers';

/** SPEC §9: the installer's version in its download path, and the default Windows architecture. */
export const CLI_VERSION = '0.0.2';
export const DEFAULT_ARCH = 'amd64';
/** SPEC §4/§9: the page reloads this long after the agent is configured. */
export const RELOAD_DELAY_MS = 3000;
/** How long the console waits for a TCP connect to the agent port before calling it closed. */
export const PORT_CHECK_TIMEOUT_MS = 3000;

/** SPEC §3 API key privileges (SPEC spells the body field `privilages`). */
export const apiKeyPrivileges = ['CREATE', 'READ', 'UPDATE', 'DELETE'] as const;
export type ApiKeyPrivilege = (typeof apiKeyPrivileges)[number];

/** POST /api/cli/create_api_key. */
export const createApiKeySchema = z
  .object({
    privilages: z
      .array(z.enum(apiKeyPrivileges, { error: `privilages may only hold ${apiKeyPrivileges.join(', ')}` }))
      .min(1, 'privilages needs at least one of CREATE, READ, UPDATE, DELETE')
      .max(4),
    serverId: str({ error: 'serverId is required' }).uuid('serverId must be a server id'),
  })
  .strict();
export type CreateApiKey = z.input<typeof createApiKeySchema>;

/** The answer of create_api_key: SPEC's `data.key`, plus the install token made from it. */
export const createdApiKeySchema = z.object({
  key: str(),
  /** Key id, for listing and revoking (the key itself is never shown again). */
  id: str(),
  prefix: str(),
  serverId: str(),
  /** Where the installer reaches this console (PUBLIC_URL, else the address the request came to). */
  apiUrl: str(),
  /** SPEC §3 Agent install token. */
  token: str(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

/** GET /api/cli/validate_api_key/{key} answers `{ data }`: what the installer needs to know about its server. */
export const validatedApiKeySchema = z.object({
  valid: z.literal(true),
  serverId: str(),
  hostname: str(),
  operating_system: operatingSystemSchema,
  agentPort: z.number().int(),
  privilages: z.array(z.enum(apiKeyPrivileges)),
});
export type ValidatedApiKey = z.infer<typeof validatedApiKeySchema>;

/** A key as listed (GET /api/cli/api_keys?serverId=): never the secret. */
export const apiKeyInfoSchema = z.object({
  _id: str(),
  serverId: str(),
  prefix: str(),
  privilages: z.array(str()),
  createdAt: str(),
  lastUsedAt: str().nullable(),
  revokedAt: str().nullable(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfoSchema>;

/** DELETE /api/cli/api_keys/{id}: the key as revoked (revoking twice keeps the first time). */
export const revokedApiKeySchema = z.object({ _id: str(), prefix: str(), serverId: str(), revokedAt: str() });

/** GET /api/servers/check-port-access/{id}: a closed port is a 422 whose message says why (SPEC §8). */
export const portAccessSchema = z.object({ isPortAccessible: z.boolean() });

/** POST /api/cli/agent-installed: what the installer reports (all optional, shown in logs). */
export const agentReportSchema = z
  .object({
    agentPort: z.number().int().min(1).max(65535).optional(),
    supervisor: z.enum(['systemd', 'process']).optional(),
    exporter: str().max(200).optional(),
  })
  .strict();
export type AgentReport = z.infer<typeof agentReportSchema>;

/** POST /api/cli/agent-installed answers `{ data }`: the server as the report left it. */
export const agentInstalledSchema = z.object({
  serverId: str(),
  hostname: str(),
  isAgentInstalled: z.literal(true),
  isAgentConfigured: z.boolean(),
  agentPort: z.number().int(),
});

/** SPEC §3 Agent install token: base64 of `{ apiUrl, serverId, key }` (plain ASCII, so btoa suffices). */
export function encodeInstallToken(t: { apiUrl: string; serverId: string; key: string }): string {
  return btoa(JSON.stringify({ apiUrl: t.apiUrl, serverId: t.serverId, key: t.key }));
}

export function decodeInstallToken(token: string): { apiUrl: string; serverId: string; key: string } | null {
  try {
    const v = JSON.parse(atob(token.trim())) as Record<string, unknown>;
    if (typeof v.apiUrl === 'string' && typeof v.serverId === 'string' && typeof v.key === 'string') return { apiUrl: v.apiUrl, serverId: v.serverId, key: v.key };
  } catch {
    // not base64 or not JSON: not a token
  }
  return null;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/**
 * A PowerShell single-quoted string: nothing inside is expanded, and a quote is written twice.
 * PowerShell takes the typographic single quotes (U+2018–U+201B) for quotes too.
 */
export const psQuote = (s: string) => `'${s.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;

/**
 * `host[:port]` as a Host header may carry it: a DNS name or IPv4 address, or an IPv6 address in
 * brackets, and a port 1–65535. Anything else (quotes, spaces, `$(`, paths) is not a host.
 */
export function isHostHeader(value: string): boolean {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*))(?::(\d{1,5}))?$/.exec(value);
  if (!m || value.length > 260) return false;
  if (m[1] !== undefined && !/^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/.test(m[1])) return false;
  return m[3] === undefined || (Number(m[3]) >= 1 && Number(m[3]) <= 65535);
}

/**
 * The one-line install command an operator pastes on the host (SPEC §7 "Agent download from
 * {host}/cli/0.0.2/sb-cli"; Windows gets the PowerShell installer, see docs/agent.md).
 */
export function installCommand(os: 'linux' | 'windows', apiUrl: string, token: string): string {
  const base = apiUrl.replace(/\/$/, '');
  if (os === 'windows') {
    return `& ([scriptblock]::Create((Invoke-RestMethod ${psQuote(`${base}/cli/${CLI_VERSION}/sb-cli.ps1`)}))) install -Token ${psQuote(token)}`;
  }
  return `curl -fsSL ${shellQuote(`${base}/cli/${CLI_VERSION}/sb-cli`)} | sudo sh -s -- install ${shellQuote(token)}`;
}
