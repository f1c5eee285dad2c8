import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCheckTargets, type CheckTargets } from '../../../tests/check-targets';
import type { CheckSettings } from '../../contract/checks';
import { probe } from './probe';
import { OutboundPolicy, SELF_MESSAGE } from '../../outbound/policy';

const SELF_TARGET_MESSAGE = SELF_MESSAGE('check');
const selfPolicy = (ports: number[]) => new OutboundPolicy({}, () => ({ ports }));

const base: CheckSettings = {
  kind: 'http',
  url: null,
  host: null,
  port: null,
  method: 'GET',
  expectedStatus: '200-299',
  keyword: null,
  keywordMode: 'contains',
  headers: [],
  followRedirects: true,
  ignoreTlsErrors: false,
  recordType: null,
  expectedAnswer: null,
  resolver: null,
  intervalSeconds: 30,
  timeoutSeconds: 5,
};

let t: CheckTargets;
beforeAll(async () => {
  t = await startCheckTargets({ certDays: 3 });
});
afterAll(async () => t.close());

const http = (path: string, extra: Partial<CheckSettings> = {}) => probe({ ...base, url: `${t.httpUrl}${path}`, ...extra });

describe('HTTP checks', () => {
  it('is up on an expected status, with latency and status code', async () => {
    const r = await http('/ok');
    expect(r).toMatchObject({ up: true, statusCode: 200, error: null, certExpiresAt: null });
    expect(r.latencyMs).toBeGreaterThan(0);
    expect(r.latencyMs).toBeLessThan(1000);
  });

  it('is down on another status, naming it and the expectation; a list of codes and ranges is honoured', async () => {
    expect(await http('/status/503')).toMatchObject({ up: false, statusCode: 503, error: 'HTTP 503, expected 200-299' });
    expect(await http('/status/503', { expectedStatus: '200-299,503' })).toMatchObject({ up: true, statusCode: 503 });
    expect(await http('/status/404', { expectedStatus: '404' })).toMatchObject({ up: true });
  });

  it('looks for a keyword that must appear, or must not', async () => {
    expect(await http('/ok', { keyword: 'all systems operational' })).toMatchObject({ up: true });
    expect(await http('/maintenance', { keyword: 'all systems operational' })).toMatchObject({ up: false, statusCode: 200, error: 'The keyword "all systems operational" is not in the response' });
    expect(await http('/maintenance', { keyword: 'maintenance', keywordMode: 'absent' })).toMatchObject({ up: false, error: 'The response contains "maintenance"' });
    expect(await http('/ok', { keyword: 'maintenance', keywordMode: 'absent' })).toMatchObject({ up: true });
  });

  it('follows redirects unless told not to, and gives up on a loop', async () => {
    expect(await http('/redirect')).toMatchObject({ up: true, statusCode: 200 });
    expect(await http('/redirect', { followRedirects: false })).toMatchObject({ up: false, statusCode: 302 });
    expect(await http('/redirect', { followRedirects: false, expectedStatus: '300-399' })).toMatchObject({ up: true, statusCode: 302 });
    expect(await http('/loop')).toMatchObject({ up: false, error: 'More than 5 redirects' });
  });

  it('sends the method and headers it is given', async () => {
    expect(await http('/headers')).toMatchObject({ up: false, statusCode: 401 });
    expect(await http('/headers', { headers: [{ name: 'Authorization', value: 'Bearer s3cret' }, { name: 'X-Team', value: 'team-ops-4f2a' }] })).toMatchObject({ up: true, statusCode: 200 });
    expect(await http('/method', { method: 'POST' })).toMatchObject({ up: true });
    expect(await http('/method')).toMatchObject({ up: false, statusCode: 405 });
  });

  it('waits for a slow answer within the timeout, and gives a hanging one up at the timeout', async () => {
    const slow = await http('/slow', { timeoutSeconds: 5 });
    expect(slow).toMatchObject({ up: true });
    expect(slow.latencyMs).toBeGreaterThanOrEqual(1150);
    const started = Date.now();
    const hang = await http('/hang', { timeoutSeconds: 1 });
    const took = Date.now() - started;
    expect(hang).toMatchObject({ up: false, error: 'No answer within 1 s', latencyMs: null });
    expect(took).toBeGreaterThanOrEqual(950);
    expect(took).toBeLessThan(2500);
  });

  it('reports a refused connection', async () => {
    expect(await probe({ ...base, url: `http://127.0.0.1:${t.tcpClosedPort}/` })).toMatchObject({ up: false, error: `Connection refused at 127.0.0.1:${t.tcpClosedPort}` });
  });

  it('refuses a self-signed certificate but still reads its expiry; ignoreTlsErrors lets it pass with the problem noted', async () => {
    const strict = await probe({ ...base, url: `${t.httpsUrl}/ok` });
    expect(strict).toMatchObject({ up: false, error: 'TLS: self-signed certificate', certProblem: 'self-signed certificate' });
    const days = (strict.certExpiresAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.9);
    expect(days).toBeLessThan(3.01);
    const lenient = await probe({ ...base, url: `${t.httpsUrl}/ok`, ignoreTlsErrors: true, keyword: 'operational' });
    expect(lenient).toMatchObject({ up: true, statusCode: 200, certProblem: 'self-signed certificate', error: null });
    expect(lenient.certExpiresAt).toEqual(strict.certExpiresAt);
  });

  it('refuses to call a guarded target, also through a redirect', async () => {
    const outbound = selfPolicy([Number(new URL(t.httpUrl).port)]);
    expect(await http('/ok', {}).then(() => probe({ ...base, url: `${t.httpUrl}/ok` }, { outbound }))).toMatchObject({ up: false, error: SELF_TARGET_MESSAGE });
    const before = t.hits.get('/ok') ?? 0;
    // The redirect's first hop is another server (the HTTPS one, allowed); it points back at the guarded port.
    const viaRedirect = await probe({ ...base, url: `${t.httpsUrl}/redirect`, ignoreTlsErrors: true }, { outbound: selfPolicy([t.httpsPort]) });
    expect(viaRedirect).toMatchObject({ up: false, error: SELF_TARGET_MESSAGE });
    expect(t.hits.get('/ok') ?? 0).toBe(before);
  });
});

describe('TCP, TLS and DNS checks', () => {
  it('TCP: up when the port accepts, down when it refuses', async () => {
    const open = await probe({ ...base, kind: 'tcp', host: '127.0.0.1', port: t.tcpOpenPort });
    expect(open).toMatchObject({ up: true, error: null });
    expect(open.latencyMs).toBeGreaterThan(0);
    expect(await probe({ ...base, kind: 'tcp', host: '127.0.0.1', port: t.tcpClosedPort })).toMatchObject({ up: false, error: `Connection refused at 127.0.0.1:${t.tcpClosedPort}` });
  });

  it('TLS: days left of the certificate, and its chain problem', async () => {
    const strict = await probe({ ...base, kind: 'tls', host: '127.0.0.1', port: t.httpsPort });
    expect(strict).toMatchObject({ up: false, error: 'TLS: self-signed certificate', certProblem: 'self-signed certificate' });
    const lenient = await probe({ ...base, kind: 'tls', host: '127.0.0.1', port: t.httpsPort, ignoreTlsErrors: true });
    expect(lenient).toMatchObject({ up: true, certProblem: 'self-signed certificate' });
    expect((lenient.certExpiresAt!.getTime() - Date.now()) / 86_400_000).toBeCloseTo(3, 1);
    // A plain TCP port is no TLS server.
    expect(await probe({ ...base, kind: 'tls', host: '127.0.0.1', port: t.tcpOpenPort, timeoutSeconds: 2 })).toMatchObject({ up: false });
  });

  it('DNS: resolves through the given resolver, compares the expected answer, and reports NXDOMAIN', async () => {
    const dns = { ...base, kind: 'dns' as const, resolver: t.dnsResolver, recordType: 'A' as const, timeoutSeconds: 2 };
    expect(await probe({ ...dns, host: 'svc.opsdeck.test' })).toMatchObject({ up: true, error: null });
    expect(await probe({ ...dns, host: 'svc.opsdeck.test', expectedAnswer: '10.1.2.3' })).toMatchObject({ up: true });
    expect(await probe({ ...dns, host: 'svc.opsdeck.test', expectedAnswer: '10.9.9.9' })).toMatchObject({ up: false, error: 'svc.opsdeck.test A answered 10.1.2.3; expected 10.9.9.9' });
    expect(await probe({ ...dns, host: 'nope.opsdeck.test' })).toMatchObject({ up: false, error: 'nope.opsdeck.test does not exist (NXDOMAIN)' });
  });

  it('DNS: a resolver stored with port 0, a port past 65535 or no address is down, never given to Node (port 0 aborted the process)', async () => {
    const dns = { ...base, kind: 'dns' as const, host: 'svc.opsdeck.test', recordType: 'A' as const, timeoutSeconds: 2 };
    for (const resolver of ['127.0.0.1:0', '[::1]:0', '127.0.0.1:65589', '999.0.0.1']) {
      expect(await probe({ ...dns, resolver }), resolver).toMatchObject({ up: false, error: `The resolver ${resolver} is not an IP address with a port from 1 to 65535` });
    }
  });
});
