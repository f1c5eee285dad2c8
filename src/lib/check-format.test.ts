import { expect, it } from 'vitest';
import { checkStateDisplay, formatCertDays, formatLatency, formatUptimeShare, uptimeTone } from './check-format';

it('formats check figures as the screens show them', () => {
  expect(checkStateDisplay({ state: 'up', paused: false })).toEqual({ label: 'Up', tone: 'green' });
  expect(checkStateDisplay({ state: 'down', paused: true })).toEqual({ label: 'Paused', tone: 'none' });
  expect(checkStateDisplay({ state: 'unknown', paused: false }).label).toBe('Not run yet');
  expect([formatLatency(null), formatLatency(12.4), formatLatency(1240)]).toEqual(['--', '12 ms', '1.24 s']);
  expect([formatUptimeShare(100), formatUptimeShare(99.951), formatUptimeShare(99.9951), formatUptimeShare(87.25), formatUptimeShare(null)]).toEqual(['100%', '99.95%', '99.995%', '87.3%', '--']);
  expect([uptimeTone(99.9), uptimeTone(97), uptimeTone(50), uptimeTone(null)]).toEqual(['green', 'orange', 'red', 'none']);
  expect([formatCertDays(2.9), formatCertDays(0.2), formatCertDays(1.5), formatCertDays(-1.2), formatCertDays(null)]).toEqual(['2 days left', 'expires today', '1 day left', 'expired 2 days ago', '--']);
});
