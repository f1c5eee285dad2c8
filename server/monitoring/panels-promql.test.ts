import { describe, expect, it } from 'vitest';
import { panelDef, panelIds } from './panels';
import { promqlPanels } from './panels-promql';
import { panelExpr, rateWindowS } from './prometheus-charts';
import { fleetServicesQuery, fleetUsageQuery, FLEET_STATE_QUERY } from './usage-promql';

describe('PromQL panels', () => {
  it.each(['linux', 'windows'] as const)('cover every %s panel of the catalogue with its legends in order', (os) => {
    expect(Object.keys(promqlPanels[os]).map(Number).sort((a, b) => a - b)).toEqual([...panelIds(os)].sort((a, b) => a - b));
    for (const id of panelIds(os)) {
      expect(promqlPanels[os][id]!.map((q) => q.legend), `${os} panel ${id}`).toEqual(panelDef(os, id)!.series.map((s) => s.legend));
    }
  });

  it('select one instance in every selector and fill in the rate window', () => {
    for (const os of ['linux', 'windows'] as const) {
      for (const queries of Object.values(promqlPanels[os])) {
        for (const { expr } of queries) {
          const filled = panelExpr(expr, '10.0.0.1:9100', 60);
          expect(filled).not.toMatch(/\{I[,}]|\[R\]/);
          // Every metric selector carries the instance.
          for (const m of filled.matchAll(/\b([a-z_]+_[a-z_A-Z]+|up)\{([^}]*)\}/g)) expect(m[2], filled).toContain('instance="10.0.0.1:9100"');
        }
      }
    }
    expect(panelExpr('max(node_load1{I}) + sum(irate(x{I,mode="idle"}[R]))', 'a"b', 30)).toBe(
      'max(node_load1{instance="a\\"b"}) + sum(irate(x{instance="a\\"b",mode="idle"}[30s]))',
    );
  });

  it('rate windows hold four scrapes and one step', () => {
    expect(rateWindowS(15, 15)).toBe(60);
    expect(rateWindowS(300, 15)).toBe(315);
    expect(rateWindowS(1, 1)).toBe(4);
  });

  it('fleet queries tag every field and keep load out of Windows', () => {
    expect(fleetUsageQuery('linux', '300s').match(/label_replace/g)).toHaveLength(13);
    expect(fleetUsageQuery('windows', '300s').match(/label_replace/g)).toHaveLength(10);
    expect(fleetUsageQuery('windows', '300s')).not.toContain('cpuLoad');
    expect(FLEET_STATE_QUERY).toContain('"up"');
    expect(fleetServicesQuery('linux')).toContain('node_systemd_unit_state{name=~".+\\\\.service"}');
  });
});
