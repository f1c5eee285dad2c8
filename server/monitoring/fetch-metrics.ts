/**
 * One exporter scrape over HTTP: GET http://ip:port/metrics with a hard deadline. Runs in the
 * scrape worker (scrape-engine.ts); imports nothing from the database or the metrics registry.
 */
import http from 'node:http';
import { OutboundPolicy } from '../outbound/policy';

const MAX_BODY = 16 * 1024 * 1024;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1, scheduling: 'lifo' });
/**
 * Exporters are on private and loopback addresses by nature (the demo fleet is 127.0.10.N):
 * only the built-in refusals apply (link-local, cloud metadata; docs/decisions.md).
 */
const exporters = new OutboundPolicy();

/**
 * GET http://ip:port/metrics with a hard deadline; resolves the body or rejects with a readable
 * reason. `signal` ends the request early (the collector stopping).
 */
export async function fetchMetrics(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<string> {
  return (await fetchMetricsBytes(host, port, timeoutMs, signal)).toString('utf8');
}

/**
 * The same body as the bytes that came (the scrape worker parses them as they are:
 * exposition.ts). Never decoded to text: a body of 100–300 KB was a string per scrape, then
 * copies of its pieces, and most of the worker's garbage; a Buffer's bytes live outside V8's
 * heap and go with the next scavenge.
 */
export async function fetchMetricsBytes(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  const started = Date.now();
  try {
    return await fetchOnce(host, port, timeoutMs, signal);
  } catch (error) {
    // A kept-alive socket the exporter closed while idle fails at once ("socket hang up",
    // ECONNRESET): that says nothing about the exporter, so ask again on a fresh connection.
    const left = timeoutMs - (Date.now() - started);
    if ((error as { staleSocket?: boolean }).staleSocket && left > 0 && !signal?.aborted) return fetchOnce(host, port, left, signal);
    throw error;
  }
}

function fetchOnce(host: string, port: number, timeoutMs: number, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let connect;
    try {
      connect = exporters.connectOptions(host, port, 'exporter');
    } catch (error) {
      return reject(error);
    }
    const request = http.get({ host, port, path: '/metrics', agent, ...connect, headers: { accept: 'text/plain;version=0.0.4' }, timeout: timeoutMs, signal }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        reject(new Error(`The exporter answered HTTP ${response.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > MAX_BODY) return request.destroy(new Error('The exporter sent more than 16 MB'));
        chunks.push(chunk);
      });
      response.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length)));
      response.on('error', reject);
    });
    const deadline = setTimeout(() => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)), timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`No answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === 'ECONNREFUSED' ? `Connection refused at ${host}:${port}` : error.code === 'EHOSTUNREACH' ? `Host ${host} is unreachable` : error.message;
      const staleSocket = request.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
      reject(Object.assign(new Error(reason), { staleSocket }));
    });
  });
}
