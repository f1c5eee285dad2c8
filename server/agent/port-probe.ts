import { connect } from 'node:net';
import { OutboundPolicy, OutboundRefused } from '../outbound/policy';

/**
 * One TCP connect with a deadline: null when it connected, else why not, in words. The agent's
 * port is an exporter's: the outbound policy's exporter rules decide whether it is tried.
 */
export function tcpProbe(host: string, port: number, timeoutMs: number, outbound: OutboundPolicy = new OutboundPolicy()): Promise<string | null> {
  let lookup;
  try {
    ({ lookup } = outbound.connectOptions(host, port, 'exporter'));
  } catch (error) {
    if (error instanceof OutboundRefused) return Promise.resolve(error.message);
    throw error;
  }
  return new Promise((resolve) => {
    const socket = connect({ host, port, lookup });
    const done = (reason: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reason);
    };
    const timer = setTimeout(() => done(`no answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    socket.once('connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => {
      const words: Record<string, string> = {
        ECONNREFUSED: 'connection refused (nothing listens on the port)',
        EHOSTUNREACH: 'host unreachable',
        ENETUNREACH: 'network unreachable',
        ECONNRESET: 'connection reset',
        EADDRNOTAVAIL: 'address not available',
      };
      done(words[err.code ?? ''] ?? err.message);
    });
  });
}
