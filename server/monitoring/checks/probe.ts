import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { MAX_BODY_BYTES, parseResolver, parseStatusList, type CheckSettings } from '../../contract/checks';
import { OutboundPolicy, OutboundRefused } from '../../outbound/policy';

/** What one run of a check found. */
export interface ProbeResult {
  up: boolean;
  /** Until the answer was read (HTTP: the whole body, up to 1 MB; TCP/TLS: connected; DNS: answered). */
  latencyMs: number | null;
  statusCode: number | null;
  certExpiresAt: Date | null;
  /** A chain or name problem of the certificate, reported also when ignoreTlsErrors lets the check pass. */
  certProblem: string | null;
  error: string | null;
}

export interface ProbeOptions {
  signal?: AbortSignal;
  /**
   * Decides every connection a check makes, redirects included, on the address it is made to
   * (server/outbound/policy.ts). Without one, the built-in refusals (link-local, metadata) apply.
   */
  outbound?: OutboundPolicy;
}

/** The built-in refusals alone: what a probe obeys when it is given no policy. */
const BUILT_IN_ONLY = new OutboundPolicy();

const MAX_REDIRECTS = 5;
const USER_AGENT = 'Opsdeck-Check/1.0';

const TLS_PROBLEMS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'incomplete chain: the issuer of the certificate is unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'incomplete chain: the issuer of the certificate is unknown',
  UNABLE_TO_GET_ISSUER_CERT: 'incomplete chain: the issuer of the certificate is unknown',
  CERT_HAS_EXPIRED: 'the certificate has expired',
  CERT_NOT_YET_VALID: 'the certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'the certificate does not name this host',
  CERT_REVOKED: 'the certificate was revoked',
};
const tlsProblem = (code: string | Error | null | undefined): string | null => {
  if (!code) return null;
  const text = typeof code === 'string' ? code : ((code as NodeJS.ErrnoException).code ?? code.message);
  return TLS_PROBLEMS[text] ?? text;
};

/**
 * A failure in words of our own: a fixed text per cause, never what the peer sent (a parser's
 * complaint about a non-HTTP answer is "not HTTP", not the bytes that came). After a redirect
 * the host is the target's own text (its Location header), so it is not named either: "the
 * redirect's target", and a cause without words of ours is its code, not Node's message (which
 * names the host).
 */
function networkError(error: NodeJS.ErrnoException, host: string, port?: number, redirected = false): string {
  const where = redirected ? "the redirect's target" : port ? `${host}:${port}` : host;
  const name = redirected ? "The redirect's target" : `The name ${host}`;
  if (error instanceof OutboundRefused) return error.message;
  if (error.code?.startsWith('HPE_')) return `The answer from ${where} is not HTTP`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `Connection refused at ${where}`;
    case 'ENOTFOUND':
      return `${name} does not resolve`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${redirected ? "The redirect's target" : host} is unreachable`;
    case 'ECONNRESET':
      return `The connection to ${where} was reset`;
    default:
      return redirected ? `The connection to ${where} failed${error.code ? ` (${error.code})` : ''}` : error.message;
  }
}

const peerExpiry = (socket: tls.TLSSocket): Date | null => {
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.valid_to) return null;
  const d = new Date(cert.valid_to);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Runs one check once. Never throws: every failure is a down result with a readable error. */
export async function probe(settings: CheckSettings, options: ProbeOptions = {}): Promise<ProbeResult> {
  try {
    switch (settings.kind) {
      case 'http':
        return await probeHttp(settings, options);
      case 'tcp':
        return await probeTcp(settings, options);
      case 'tls':
        return await probeTls(settings, options);
      case 'dns':
        return await probeDns(settings, options);
    }
  } catch (error) {
    return down((error as Error).message ?? String(error));
  }
}

const down = (error: string, extra: Partial<ProbeResult> = {}): ProbeResult => ({ up: false, latencyMs: null, statusCode: null, certExpiresAt: null, certProblem: null, error, ...extra });

/** Rejects after `ms` or when `signal` aborts; `cleanup` closes whatever was opened. */
function withDeadline<T>(ms: number, signal: AbortSignal | undefined, run: (fail: (e: Error) => void) => Promise<T>, cleanup: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const fail = (e: Error) => finish(() => {
      cleanup();
      reject(e);
    });
    const timer = setTimeout(() => fail(new Error(`No answer within ${ms / 1000} s`)), ms);
    const onAbort = () => fail(new Error('Stopped'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    run(fail).then(
      (v) => finish(() => resolve(v)),
      (e) => fail(e as Error),
    );
  });
}

interface HttpHop {
  status: number;
  location: string | null;
  body: string;
  certExpiresAt: Date | null;
  certProblem: string | null;
}

async function probeHttp(s: CheckSettings, options: ProbeOptions): Promise<ProbeResult> {
  const started = performance.now();
  const deadlineMs = s.timeoutSeconds * 1000;
  const expected = parseStatusList(s.expectedStatus) ?? [[200, 299]];
  let current: http.ClientRequest | null = null;
  const wantBody = s.keyword !== null && s.keyword !== '' && s.method !== 'HEAD';
  return withDeadline(
    deadlineMs,
    options.signal,
    async () => {
      let url = new URL(s.url!);
      let method: string = s.method;
      for (let hop = 0; ; hop++) {
        const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
        const host = url.hostname.replace(/^\[|\]$/g, '');
        let result: HttpHop;
        try {
          const connect = (options.outbound ?? BUILT_IN_ONLY).connectOptions(host, port, 'check');
          result = await httpOnce(url, method, s, wantBody, connect, (r) => (current = r));
        } catch (error) {
          const e = error as NodeJS.ErrnoException & { certProblem?: string; certExpiresAt?: Date | null };
          if (e.certProblem) return down(`TLS: ${e.certProblem}`, { certProblem: e.certProblem, certExpiresAt: e.certExpiresAt ?? null });
          return down(networkError(e, host, port, hop > 0));
        }
        if (s.followRedirects && result.location && result.status >= 300 && result.status < 400 && result.status !== 304) {
          if (hop >= MAX_REDIRECTS) return down(`More than ${MAX_REDIRECTS} redirects`, { statusCode: result.status });
          let next: URL;
          try {
            next = new URL(result.location, url);
          } catch {
            // The target's own text (its Location header) is not repeated.
            return down('The redirect does not name a valid URL', { statusCode: result.status });
          }
          // Its scheme is the target's text too (any letters it likes before a colon).
          if (next.protocol !== 'http:' && next.protocol !== 'https:') return down('A redirect to a URL that is not http or https is not followed', { statusCode: result.status });
          // As browsers do: 303 (and 301/302 after a POST) continue with GET.
          if (result.status === 303 || ((result.status === 301 || result.status === 302) && method === 'POST')) method = 'GET';
          url = next;
          continue;
        }
        const latencyMs = Math.round((performance.now() - started) * 10) / 10;
        const tlsInfo = { certExpiresAt: result.certExpiresAt, certProblem: result.certProblem };
        if (!expected.some(([a, b]) => result.status >= a && result.status <= b)) {
          return { up: false, latencyMs, statusCode: result.status, ...tlsInfo, error: `HTTP ${result.status}, expected ${s.expectedStatus}` };
        }
        if (wantBody) {
          const found = result.body.includes(s.keyword!);
          if (s.keywordMode === 'contains' && !found) return { up: false, latencyMs, statusCode: result.status, ...tlsInfo, error: `The keyword "${s.keyword}" is not in the response` };
          if (s.keywordMode === 'absent' && found) return { up: false, latencyMs, statusCode: result.status, ...tlsInfo, error: `The response contains "${s.keyword}"` };
        }
        return { up: true, latencyMs, statusCode: result.status, ...tlsInfo, error: null };
      }
    },
    () => (current as http.ClientRequest | null)?.destroy(),
  );
}

function httpOnce(url: URL, method: string, s: CheckSettings, wantBody: boolean, connect: Pick<http.RequestOptions, 'lookup'>, onRequest: (r: http.ClientRequest) => void): Promise<HttpHop> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*' };
    for (const h of s.headers) headers[h.name.toLowerCase()] = h.value;
    let certExpiresAt: Date | null = null;
    let certProblem: string | null = null;
    const request = (secure ? https : http).request(url, {
      method,
      headers,
      agent: false,
      ...connect,
      // Verified by hand below, so the certificate's expiry is read even when it is refused.
      ...(secure ? { rejectUnauthorized: false } : {}),
    });
    onRequest(request);
    if (secure) {
      request.on('socket', (socket) => {
        socket.once('secureConnect', () => {
          const t = socket as tls.TLSSocket;
          certExpiresAt = peerExpiry(t);
          certProblem = t.authorized ? null : tlsProblem(t.authorizationError);
          if (certProblem && !s.ignoreTlsErrors) request.destroy(Object.assign(new Error(certProblem), { certProblem, certExpiresAt }));
        });
      });
    }
    request.on('error', reject);
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = typeof response.headers.location === 'string' ? response.headers.location : null;
      if (!wantBody) {
        // The whole answer is still read (latency counts it), but not kept.
        response.on('data', () => undefined);
        response.on('end', () => resolve({ status, location, body: '', certExpiresAt, certProblem }));
        response.on('error', reject);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        if (size >= MAX_BODY_BYTES) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) {
          resolve({ status, location, body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), certExpiresAt, certProblem });
          request.destroy();
        }
      });
      response.on('end', () => resolve({ status, location, body: Buffer.concat(chunks).toString('utf8'), certExpiresAt, certProblem }));
      response.on('error', reject);
    });
    request.end();
  });
}

async function probeTcp(s: CheckSettings, options: ProbeOptions): Promise<ProbeResult> {
  const host = s.host!;
  const port = s.port!;
  let connect: Pick<net.TcpNetConnectOpts, 'lookup'>;
  try {
    connect = (options.outbound ?? BUILT_IN_ONLY).connectOptions(host, port, 'check');
  } catch (error) {
    return down((error as Error).message);
  }
  const started = performance.now();
  let socket: net.Socket | null = null;
  return withDeadline(
    s.timeoutSeconds * 1000,
    options.signal,
    () =>
      new Promise<ProbeResult>((resolve) => {
        socket = net.connect({ host, port, ...connect });
        socket.once('connect', () => {
          const latencyMs = Math.round((performance.now() - started) * 10) / 10;
          socket!.destroy();
          resolve({ up: true, latencyMs, statusCode: null, certExpiresAt: null, certProblem: null, error: null });
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(down(networkError(error, host, port))));
      }),
    () => (socket as net.Socket | null)?.destroy(),
  ).catch((error: Error) => down(error.message));
}

async function probeTls(s: CheckSettings, options: ProbeOptions): Promise<ProbeResult> {
  const host = s.host!;
  const port = s.port!;
  let connect: Pick<tls.ConnectionOptions, 'lookup'>;
  try {
    connect = (options.outbound ?? BUILT_IN_ONLY).connectOptions(host, port, 'check');
  } catch (error) {
    return down((error as Error).message);
  }
  const started = performance.now();
  let socket: tls.TLSSocket | null = null;
  return withDeadline(
    s.timeoutSeconds * 1000,
    options.signal,
    () =>
      new Promise<ProbeResult>((resolve) => {
        // The chain and the name are checked by Node (authorized); refusing is our decision below.
        socket = tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false, ...connect });
        socket.once('secureConnect', () => {
          const t = socket!;
          const latencyMs = Math.round((performance.now() - started) * 10) / 10;
          const certExpiresAt = peerExpiry(t);
          const certProblem = t.authorized ? null : tlsProblem(t.authorizationError);
          t.destroy();
          if (!certExpiresAt) return resolve(down('The server sent no certificate', { latencyMs }));
          if (certExpiresAt.getTime() <= Date.now()) return resolve(down('The certificate has expired', { latencyMs, certExpiresAt, certProblem }));
          if (certProblem && !s.ignoreTlsErrors) return resolve(down(`TLS: ${certProblem}`, { latencyMs, certExpiresAt, certProblem }));
          resolve({ up: true, latencyMs, statusCode: null, certExpiresAt, certProblem, error: null });
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(down(networkError(error, host, port))));
      }),
    () => (socket as tls.TLSSocket | null)?.destroy(),
  ).catch((error: Error) => down(error.message));
}

const normalize = (v: string) => v.trim().replace(/\.$/, '').toLowerCase();

/**
 * A DNS check's error without the records it got (issue 25 §4): they may hold what only the
 * check's editors should read (TXT values, internal addresses). What the check expected stays
 * in its settings; the error then says only that the answer was not it.
 */
export function withoutDnsAnswers(error: string | null): string | null {
  const m = error ? /^(\S+) (\S+) answered /.exec(error) : null;
  return m ? `${m[1]} ${m[2]} did not give the expected answer` : error;
}

/** A DNS check's resolver field (`1.1.1.1`, `10.0.0.2:5353`, `[::1]:53`, `::1`) as host and port. */
export function resolverAddress(resolver: string): { host: string; port: number } {
  return parseResolver(resolver) ?? { host: resolver, port: 53 };
}

async function probeDns(s: CheckSettings, options: ProbeOptions): Promise<ProbeResult> {
  const type = s.recordType ?? 'A';
  // The resolver is a server the check sends its questions to: the policy decides on it too.
  if (s.resolver) {
    // One stored before the contract refused it is never handed to Node (port 0 aborts the process).
    const at = parseResolver(s.resolver);
    if (!at) return down(`The resolver ${s.resolver} is not an IP address with a port from 1 to 65535`);
    const { host, port } = at;
    const refused = (options.outbound ?? BUILT_IN_ONLY).decide(host, port, 'check');
    if (refused) return down(refused);
  }
  const resolver = new Resolver({ timeout: s.timeoutSeconds * 1000, tries: 1 });
  if (s.resolver) resolver.setServers([s.resolver]);
  const started = performance.now();
  return withDeadline(
    s.timeoutSeconds * 1000,
    options.signal,
    async () => {
      let answers: string[];
      try {
        answers = await resolveAs(resolver, s.host!, type);
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        const reason =
          e.code === 'ENOTFOUND' ? `${s.host} does not exist (NXDOMAIN)` : e.code === 'ENODATA' ? `${s.host} has no ${type} records` : e.code === 'ETIMEOUT' ? `No DNS answer within ${s.timeoutSeconds} s` : `DNS: ${e.code ?? e.message}`;
        return down(reason);
      }
      const latencyMs = Math.round((performance.now() - started) * 10) / 10;
      if (!answers.length) return down(`${s.host} has no ${type} records`, { latencyMs });
      if (s.expectedAnswer && !answers.some((a) => normalize(a) === normalize(s.expectedAnswer!))) {
        return down(`${s.host} ${type} answered ${answers.slice(0, 5).join(', ')}; expected ${s.expectedAnswer}`, { latencyMs });
      }
      return { up: true, latencyMs, statusCode: null, certExpiresAt: null, certProblem: null, error: null };
    },
    () => resolver.cancel(),
  ).catch((error: Error) => down(error.message));
}

async function resolveAs(resolver: Resolver, host: string, type: NonNullable<CheckSettings['recordType']>): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(host);
    case 'AAAA':
      return resolver.resolve6(host);
    case 'CNAME':
      return resolver.resolveCname(host);
    case 'NS':
      return resolver.resolveNs(host);
    case 'MX':
      return (await resolver.resolveMx(host)).map((m) => m.exchange);
    case 'TXT':
      return (await resolver.resolveTxt(host)).map((parts) => parts.join(''));
  }
}
