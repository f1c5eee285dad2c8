/**
 * Authenticated metric backends (issue 12 §5): Debian's Prometheus behind its own web config (TLS
 * with a certificate only PROMETHEUS_CA_FILE trusts, basic auth with a bcrypt hash made here),
 * reached with `user:pass@` in PROMETHEUS_URL; and VictoriaMetrics, which that Prometheus
 * remote-writes to, as the query backend behind a tenant gateway that wants a bearer token and
 * `X-Scope-OrgID` (what Mimir or vmauth ask). Wrong credentials are refused, and no secret shows
 * in the health, readiness, errors or logs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig, type Config } from '../../server/config';
import { nodeExporterWithDisk } from '../../server/monitoring/fixtures/node-exporter';
import { backends, startTestApp, type TestApp } from '../api/harness';
import { freePort, havePrometheus, run, startPrometheus, waitFor, type Proc } from './processes';

const VICTORIA = '/usr/bin/victoria-metrics';
const PASSWORD = 'pr0m-s3cret-pw';
const TOKEN = 'gateway-s3cret-token';
const [pglite] = (await backends()).filter((b) => b.name === 'pglite');
const canRun = havePrometheus && existsSync(VICTORIA) && existsSync('/usr/bin/openssl') && spawnSync('python3', ['-c', 'import crypt']).status === 0;

describe.skipIf(!canRun)('authenticated metric backends', () => {
  let dir: string;
  let exporter: Server;
  let gateway: Server;
  let prometheus: Proc & { url: string };
  let victoria: Proc;
  let gatewayUrl: string;
  const apps: TestApp[] = [];
  const logs: string[] = [];

  async function app(monitoring: Partial<Config['monitoring']>): Promise<{ t: TestApp; admin: string; id: string }> {
    const base = testConfig();
    const t = await startTestApp(pglite!, { monitoring: { ...base.monitoring, enabled: true, scrapeIntervalS: 1, scrapeTimeoutS: 0.9, ...monitoring } });
    apps.push(t);
    const user = await t.addUser({ role: 'admin' });
    const admin = await t.signIn(user.email, user.password);
    const res = await t.call('POST', '/api/servers', {
      cookie: admin,
      body: { hostname: 'behind-auth', ipaddress: '127.0.0.1', operating_system: 'linux', agentPort: (exporter.address() as AddressInfo).port, isAgentConfigured: true },
    });
    return { t, admin, id: res.body.result._id };
  }
  const usage = async (a: { t: TestApp; admin: string; id: string }) => (await a.t.call('GET', `/api/servers/metrics/usage/${a.id}`, { cookie: a.admin })).body.result;
  const health = async (a: { t: TestApp; admin: string }) => (await a.t.call('GET', '/api/monitoring/health', { cookie: a.admin })).body.result;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'opsdeck-auth-'));
    exporter = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(nodeExporterWithDisk(55)));
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    // A certificate for 127.0.0.1 that only the CA file trusts (it is its own CA).
    const ssl = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1']);
    expect(ssl.status, ssl.stderr.toString()).toBe(0);
    const hash = spawnSync('python3', ['-c', `import crypt; print(crypt.crypt(${JSON.stringify(PASSWORD)}, crypt.mksalt(crypt.METHOD_BLOWFISH)))`]).stdout.toString().trim();
    expect(hash).toMatch(/^\$2b\$/);
    writeFileSync(join(dir, 'web.yml'), `tls_server_config:\n  cert_file: ${join(dir, 'cert.pem')}\n  key_file: ${join(dir, 'key.pem')}\nbasic_auth_users:\n  opsdeck: '${hash}'\n`);

    const vmPort = await freePort();
    victoria = run(VICTORIA, [`-httpListenAddr=127.0.0.1:${vmPort}`, `-storageDataPath=${join(dir, 'vm')}`, '-loggerLevel=ERROR', '-search.latencyOffset=0s', '-search.disableCache']);
    // Prometheus scrapes the exporter and remote-writes to VictoriaMetrics (remote_write is top-level YAML).
    prometheus = startPrometheus({
      port: await freePort(),
      scrapeConfigs: `  - job_name: exporter\n    static_configs: [{ targets: ['127.0.0.1:${(exporter.address() as AddressInfo).port}'] }]\nremote_write:\n  - url: http://127.0.0.1:${vmPort}/api/v1/write\n`,
      args: [`--web.config.file=${join(dir, 'web.yml')}`],
    });
    // The tenant gateway in front of VictoriaMetrics: a bearer token and X-Scope-OrgID, or 401.
    gateway = createServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}` || req.headers['x-scope-orgid'] !== 'tenant-1') return res.writeHead(401, { 'content-type': 'text/plain' }).end('no tenant\n');
      const upstream = request({ host: '127.0.0.1', port: vmPort, path: req.url, method: req.method, headers: { ...req.headers, host: `127.0.0.1:${vmPort}` } }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(apps.map((t) => t.close()));
    await Promise.all([prometheus?.stop(), victoria?.stop()]);
    for (const s of [exporter, gateway]) await new Promise<void>((resolve) => (s ? s.close(() => resolve()) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads from Prometheus over TLS (PROMETHEUS_CA_FILE) with user:pass@ in PROMETHEUS_URL', async () => {
    const port = new URL(prometheus.url).port;
    const a = await app({ prometheusUrl: `https://opsdeck:${PASSWORD}@127.0.0.1:${port}`, prometheusAuth: { ca: readFileSync(join(dir, 'cert.pem'), 'utf8') } });
    const u = await waitFor(`figures through auth\n${prometheus.output()}`, async () => {
      const x = await usage(a);
      return x.state === 'up' && x.diskUsage !== null ? x : null;
    }, 40_000);
    expect(u.diskUsage).toBeCloseTo(55, 0);
    const h = await health(a);
    expect(h.backend).toBe(`Prometheus at https://127.0.0.1:${port}`);
  });

  it('is refused with the wrong password or an untrusted certificate, and never shows the secret', async () => {
    const port = new URL(prometheus.url).port;
    const wrong = await app({ prometheusUrl: `https://opsdeck:not-${PASSWORD}@127.0.0.1:${port}`, prometheusAuth: { ca: readFileSync(join(dir, 'cert.pem'), 'utf8') } });
    const untrusted = await app({ prometheusUrl: `https://127.0.0.1:${port}`, prometheusAuth: { basicAuth: `opsdeck:${PASSWORD}` } });
    const refused = await waitFor('the wrong password to be refused', async () => ((await health(wrong)).status === 'blind' ? health(wrong) : null), 20_000);
    expect(refused.cause).toBe(`Prometheus at https://127.0.0.1:${port} refused the query: HTTP 401 (check PROMETHEUS_BASIC_AUTH, PROMETHEUS_BEARER_TOKEN and PROMETHEUS_HEADERS)`);
    const tls = await waitFor('the untrusted certificate', async () => ((await health(untrusted)).status === 'blind' ? health(untrusted) : null), 20_000);
    expect(tls.cause).toMatch(/did not answer: .*(self[- ]signed|certificate)/i);
    for (const a of [wrong, untrusted]) {
      const ready = await a.t.call('GET', '/api/ready');
      expect(ready.status).toBe(503);
      const shown = JSON.stringify([ready.body, await health(a), await usage(a), (await a.t.call('GET', `/api/servers/${a.id}`, { cookie: a.admin })).body]);
      expect(shown).not.toContain(PASSWORD);
    }
  });

  it('reads from VictoriaMetrics behind a tenant gateway with PROMETHEUS_BEARER_TOKEN and PROMETHEUS_HEADERS', async () => {
    const a = await app({ prometheusUrl: gatewayUrl, prometheusAuth: { bearerToken: TOKEN, headers: { 'X-Scope-OrgID': 'tenant-1' } } });
    const u = await waitFor(`figures from VictoriaMetrics\n${victoria.output()}`, async () => {
      const x = await usage(a);
      return x.state === 'up' && x.diskUsage !== null ? x : null;
    }, 60_000);
    expect(u.diskUsage).toBeCloseTo(55, 0);
    const noTenant = await app({ prometheusUrl: gatewayUrl, prometheusAuth: { bearerToken: TOKEN } });
    const refused = await waitFor('the missing tenant to be refused', async () => ((await health(noTenant)).status === 'blind' ? health(noTenant) : null), 20_000);
    expect(refused.cause).toContain('refused the query: HTTP 401');
    expect(JSON.stringify(refused)).not.toContain(TOKEN);
  });
});
