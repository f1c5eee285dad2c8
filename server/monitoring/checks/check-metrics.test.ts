import { Registry } from 'prom-client';
import { expect, it } from 'vitest';
import type { CheckRunner } from './check-runner';
import { registerCheckMetrics } from './check-metrics';

it('exposes the latest result of every check as gauges labelled with its name and kind', async () => {
  const latest = new Map([
    ['a', { id: 'a', name: 'Shop front', kind: 'http' as const, up: true, latencyMs: 123, statusCode: 200, certExpiresAt: new Date('2027-01-01T00:00:00Z'), atMs: 1_800_000_000_000 }],
    ['b', { id: 'b', name: 'db "port"', kind: 'tcp' as const, up: false, latencyMs: null, statusCode: null, certExpiresAt: null, atMs: 1_800_000_001_000 }],
  ]);
  const registry = new Registry();
  registerCheckMetrics(registry, { latest } as unknown as CheckRunner);
  const text = await registry.metrics();
  expect(text).toContain('opsdeck_check_up{check="Shop front",kind="http"} 1');
  expect(text).toContain('opsdeck_check_up{check="db \\"port\\"",kind="tcp"} 0');
  expect(text).toContain('opsdeck_check_latency_seconds{check="Shop front",kind="http"} 0.123');
  expect(text).not.toContain('opsdeck_check_latency_seconds{check="db');
  expect(text).toContain('opsdeck_check_status_code{check="Shop front",kind="http"} 200');
  expect(text).toContain('opsdeck_check_certificate_expiry_seconds{check="Shop front",kind="http"} 1798761600');
  // A deleted check is gone at the next scrape.
  latest.delete('b');
  expect(await registry.metrics()).not.toContain('db \\"port\\"');
});
