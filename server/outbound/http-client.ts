/**
 * fetch for what the console sends on someone's behalf (channels, Slack, Alertmanager), through
 * undici with a connector that asks the outbound policy before every connection, redirects
 * included. undici is the library behind Node's own fetch; its npm package is used because
 * Node's global fetch takes no connection options of its own.
 */
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { OutboundPolicy, type OutboundPurpose } from './policy';

export type OutboundFetch = typeof undiciFetch;

const agents = new WeakMap<OutboundPolicy, Map<OutboundPurpose, Agent>>();

function agentFor(policy: OutboundPolicy, purpose: OutboundPurpose): Agent {
  let byPurpose = agents.get(policy);
  if (!byPurpose) agents.set(policy, (byPurpose = new Map()));
  let agent = byPurpose.get(purpose);
  if (!agent) {
    agent = new Agent({
      connect: (options, callback) => {
        const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
        let lookup;
        try {
          ({ lookup } = policy.connectOptions(options.hostname, port, purpose));
        } catch (error) {
          return callback(error as Error, null);
        }
        // The lookup knows the port (the console's own port is refused on local addresses only).
        buildConnector({ lookup } as buildConnector.BuildOptions)(options, callback);
      },
    });
    byPurpose.set(purpose, agent);
  }
  return agent;
}

/** A fetch whose every connection `policy` decides for `purpose`. */
export function outboundFetch(policy: OutboundPolicy, purpose: OutboundPurpose): OutboundFetch {
  const dispatcher = agentFor(policy, purpose);
  return ((input, init) => undiciFetch(input, { ...init, dispatcher })) as OutboundFetch;
}

/** Ends the kept-alive connections of every fetch made for `policy` (the app closing). */
export async function closeOutboundFetches(policy: OutboundPolicy): Promise<void> {
  const byPurpose = agents.get(policy);
  agents.delete(policy);
  await Promise.all([...(byPurpose?.values() ?? [])].map((agent) => agent.close().catch(() => undefined)));
}

/** The policy's refusal behind a failed fetch (undici wraps it as the cause of "fetch failed"), or null. */
export function refusalOf(error: unknown): string | null {
  for (let e = error as { code?: string; message?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (e.code === 'EOUTBOUND') return e.message ?? null;
  }
  return null;
}
