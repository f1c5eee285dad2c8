import { describe, expect, it } from 'vitest';
import { WINDOWS_DASHBOARD_UID } from '../../server/contract/grafana';
import { grafanaPanelUrl } from './grafana-embed';

const base = { grafanaUrl: 'https://grafana.example.com/', ipaddress: '10.0.0.5', agentPort: 9100, from: 1_700_000_000_000, to: 1_700_003_600_000, theme: 'light' as const, job: 'opsdeck', datasource: 'default' };

describe('grafanaPanelUrl', () => {
  it('builds the Linux (Node Exporter Full) form of PANELS.md with the job and data source variables', () => {
    expect(grafanaPanelUrl({ ...base, os: 'linux', panelId: 77, refresh: '30s' })).toBe(
      'https://grafana.example.com/d-solo/rYdddlPWk/node-exporter-full?orgId=1&var-datasource=default&var-job=opsdeck&var-node=10.0.0.5:9100&from=1700000000000&to=1700003600000&theme=light&panelId=77&refresh=30s',
    );
  });

  it('carries the configured job and data source, encoded', () => {
    const url = new URL(grafanaPanelUrl({ ...base, os: 'linux', panelId: 20, job: 'node exporters', datasource: 'P1809F7CD0C75ACF3' }));
    expect(url.searchParams.get('var-job')).toBe('node exporters');
    expect(url.searchParams.get('var-datasource')).toBe('P1809F7CD0C75ACF3');
  });

  it('defaults the Linux refresh to 10s and follows the theme', () => {
    const url = new URL(grafanaPanelUrl({ ...base, os: 'linux', panelId: 20, theme: 'dark' }));
    expect(url.searchParams.get('refresh')).toBe('10s');
    expect(url.searchParams.get('theme')).toBe('dark');
  });

  it('builds the Windows form with var-server and the named uid', () => {
    expect(grafanaPanelUrl({ ...base, os: 'windows', panelId: 40, agentPort: 9182 })).toBe(
      `https://grafana.example.com/d-solo/${WINDOWS_DASHBOARD_UID}/windows-exporter-dashboard?var-datasource=default&var-server=10.0.0.5:9182&from=1700000000000&to=1700003600000&theme=light&panelId=40`,
    );
  });

  it('brackets IPv6 instances and keeps a Grafana served under a path', () => {
    const url = grafanaPanelUrl({ ...base, grafanaUrl: 'http://mon.local/grafana', ipaddress: 'fd00::5', os: 'linux', panelId: 14 });
    expect(url.startsWith('http://mon.local/grafana/d-solo/rYdddlPWk/node-exporter-full?')).toBe(true);
    expect(new URL(url).searchParams.get('var-node')).toBe('[fd00::5]:9100');
  });

  it('passes Grafana-relative times through, so a preset range moves with Grafana\'s refresh', () => {
    const url = new URL(grafanaPanelUrl({ ...base, os: 'linux', panelId: 77, from: 'now-3h', to: 'now' }));
    expect(url.searchParams.get('from')).toBe('now-3h');
    expect(url.searchParams.get('to')).toBe('now');
  });
});
