import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { LINUX_DASHBOARD_UID, WINDOWS_DASHBOARD_UID } from '../../server/contract/grafana';
import { DashboardError, PINNED_DASHBOARDS, prepareDashboard, writeDashboards } from '../../server/grafana/dashboards';
import { backends, startTestApp, type TestApp } from './harness';

// Issue 12 part 8: the embed settings reach the web app, and `opsdeck grafana-dashboards` prepares
// the dashboards for provisioning. The real dashboards are their authors' and are not in the
// repository: these tests use small stand-ins of the same shape, and the pinned checksum refuses
// anything else. (The pinned files themselves were checked once by hand: README.)

describe('GET /api/monitoring/config', () => {
  let t: TestApp;
  // The app (and its database) in a hook: opening PGlite takes long on a loaded machine.
  beforeAll(async () => {
    const [pglite] = await backends();
    const base = testConfig();
    t = await startTestApp(pglite!, { monitoring: { ...base.monitoring, grafanaUrl: 'http://grafana.local:3001', grafanaJob: 'node', grafanaDatasource: 'prom-main' } });
  });
  afterAll(() => t?.close());

  it('carries the job and the data source the embedded panels use (GRAFANA_JOB, GRAFANA_DATASOURCE)', async () => {
    const viewer = await t.addUser({ role: 'user' });
    const cookie = await t.signIn(viewer.email, viewer.password);
    const res = await t.call('GET', '/api/monitoring/config', { cookie });
    expect(res.body.result).toMatchObject({ grafanaUrl: 'http://grafana.local:3001', grafanaJob: 'node', grafanaDatasource: 'prom-main' });
  });

  it('defaults to the README scrape config\'s job and Grafana\'s default data source', () => {
    expect(testConfig().monitoring).toMatchObject({ grafanaJob: 'opsdeck', grafanaDatasource: 'default' });
  });
});

const linuxLike = JSON.stringify({
  __inputs: [{ name: 'DS_PROMETHEUS', type: 'datasource' }],
  id: 12,
  uid: 'something-else',
  title: 'Node stand-in',
  panels: [{ id: 77, datasource: { type: 'prometheus', uid: '${datasource}' }, targets: [{ expr: 'node_load1{instance="$node",job="$job"}' }] }],
  templating: { list: [{ name: 'datasource', type: 'datasource', query: 'prometheus' }, { name: 'job', type: 'query' }, { name: 'node', type: 'query' }] },
});
const windowsLike = JSON.stringify({
  __inputs: [{ name: 'DS_PROMETHEUS', type: 'datasource' }],
  uid: 'abc',
  title: 'Windows stand-in',
  panels: [{ id: 19, datasource: '${DS_PROMETHEUS}', targets: [{ expr: 'windows_cs_logical_processors{instance=~"$server"}' }] }],
  templating: { list: [{ name: 'server', type: 'query', datasource: '${DS_PROMETHEUS}' }] },
});

describe('prepareDashboard', () => {
  it('gives 1860 the console\'s uid and no numeric id, and keeps its variables', () => {
    const d = prepareDashboard(linuxLike, { uid: LINUX_DASHBOARD_UID, os: 'linux', gnetId: 1860 });
    expect(d.uid).toBe('rYdddlPWk');
    expect(d.id).toBeNull();
    expect(d.__inputs).toBeUndefined();
    expect(d.templating!.list.map((v) => v.name)).toEqual(['datasource', 'job', 'node']);
  });

  it('turns 14694\'s import placeholder into a datasource variable the embed URL can set', () => {
    const d = prepareDashboard(windowsLike, { uid: WINDOWS_DASHBOARD_UID, os: 'windows', gnetId: 14694 });
    expect(d.uid).toBe(WINDOWS_DASHBOARD_UID);
    expect(JSON.stringify(d)).not.toContain('DS_PROMETHEUS');
    expect(d.templating!.list.map((v) => v.name)).toEqual(['datasource', 'server']);
    expect((d.panels as { datasource: string }[])[0]!.datasource).toBe('${datasource}');
  });

  it('refuses a dashboard without a variable the embed URLs set', () => {
    const noJob = JSON.stringify({ templating: { list: [{ name: 'node', type: 'query' }] } });
    expect(() => prepareDashboard(noJob, { uid: 'x', os: 'linux', gnetId: 1860 })).toThrow(/no variable job/);
    expect(() => prepareDashboard('<html>', { uid: 'x', os: 'linux', gnetId: 1860 })).toThrow(DashboardError);
  });
});

describe('opsdeck grafana-dashboards', () => {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-dashboards-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pins both dashboards from their authors\' repositories by commit and SHA-256', () => {
    expect(PINNED_DASHBOARDS.map((d) => [d.gnetId, d.uid])).toEqual([
      [1860, LINUX_DASHBOARD_UID],
      [14694, WINDOWS_DASHBOARD_UID],
    ]);
    for (const d of PINNED_DASHBOARDS) {
      expect(d.path).toMatch(/^[\w.-]+\/[\w.-]+\/[0-9a-f]{40}\//);
      expect(d.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it('writes nothing when a download is not the pinned file', async () => {
    const served: string[] = [];
    const server = createServer((req, res) => {
      served.push(req.url!);
      res.writeHead(200, { 'content-type': 'application/json' }).end(linuxLike);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const source = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await expect(writeDashboards(dir, source, () => {})).rejects.toThrow(/is not the pinned dashboard 1860 \(SHA-256 [0-9a-f]{64}, expected 98dc8a2a/);
      expect(served).toEqual([`/${PINNED_DASHBOARDS[0]!.path}`]);
      expect(existsSync(join(dir, 'node-exporter-full.json'))).toBe(false);
    } finally {
      server.close();
    }
  });

  it('the provisioning files point where the command writes and name the uid the data source default relies on', () => {
    const provider = readFileSync('deploy/grafana/provisioning/dashboards/opsdeck.yaml', 'utf8');
    expect(provider).toMatch(/^\s+path: \/var\/lib\/grafana\/dashboards\/opsdeck$/m);
    const compose = readFileSync('compose.yaml', 'utf8');
    expect(compose).toContain('- grafana-dashboards:/var/lib/grafana/dashboards/opsdeck:ro');
    expect(compose).toContain('command: ["opsdeck", "grafana-dashboards", "/dashboards"]');
    expect(readFileSync('deploy/grafana/provisioning/datasources/opsdeck.yaml', 'utf8')).toMatch(/^\s+isDefault: true$/m);
  });
});
