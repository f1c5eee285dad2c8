import { describe, expect, it } from 'vitest';
import {
  abbreviateCount,
  formatDiskUsage,
  formatDowntime,
  formatRoundedPercent,
  instanceRingText,
  pagerVisible,
  ringShare,
  showingItems,
} from './dashboard-format';
import { dashboardHref, dashboardSearchSchema, openDashboard, thresholdOf } from './dashboard-view';
import * as z from 'zod/mini';

describe('abbreviateCount (SPEC §2: above 1e3 k, 1e6 m, 1e9 b, one decimal)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1000'],
    [1001, '1.0k'],
    [1050, '1.1k'],
    [1540, '1.5k'],
    [12_345, '12.3k'],
    [999_949, '999.9k'],
    [999_999, '1.0m'],
    [1_000_000, '1.0m'],
    [1_000_001, '1.0m'],
    [2_460_000, '2.5m'],
    [1_000_000_000, '1.0b'],
    [1_000_000_001, '1.0b'],
    [7_250_000_000, '7.3b'],
    [2_500_000_000_000, '2500.0b'],
  ])('%d → %s', (n, text) => expect(abbreviateCount(n)).toBe(text));
  it('shows -- for a missing count', () => {
    expect(abbreviateCount(null)).toBe('--');
    expect(abbreviateCount(undefined)).toBe('--');
    expect(abbreviateCount(Number.NaN)).toBe('--');
  });
});

describe('rings', () => {
  it('instance ring shows running/total, or -- when missing', () => {
    expect(instanceRingText(7, 10)).toBe('7/10');
    expect(instanceRingText(0, 0)).toBe('0/0');
    expect(instanceRingText(null, 10)).toBe('--');
    expect(instanceRingText(3, undefined)).toBe('--');
  });
  it('shares are 0–1 and 0 with nothing to share', () => {
    expect(ringShare(3, 10)).toBeCloseTo(0.3);
    expect(ringShare(0, 0)).toBe(0);
    expect(ringShare(5, null)).toBe(0);
    expect(ringShare(12, 10)).toBe(1);
  });
});

describe('percentages', () => {
  it('memory is a rounded percentage', () => {
    expect(formatRoundedPercent(91.4)).toBe('91%');
    expect(formatRoundedPercent(91.5)).toBe('92%');
    expect(formatRoundedPercent(100)).toBe('100%');
    expect(formatRoundedPercent(null)).toBe('--');
  });
  it('disk shows the value for Windows and 100 minus the value for others, rounded', () => {
    // A Linux host at 96.4 % used comes as 3.6 % available: the card shows 96, as the Servers list.
    expect(formatDiskUsage(3.6, 'linux')).toBe('96%');
    expect(formatDiskUsage(3.5, 'linux')).toBe('97%');
    expect(formatDiskUsage(91.2, 'windows')).toBe('91%');
    expect(formatDiskUsage(90.5, 'windows')).toBe('91%');
    expect(formatDiskUsage(null, 'linux')).toBe('--');
  });
  it('downtime reads in the largest units', () => {
    expect(formatDowntime(45)).toBe('45s');
    expect(formatDowntime(303)).toBe('5m 3s');
    expect(formatDowntime(7200)).toBe('2h 0m');
    expect(formatDowntime(3 * 86_400 + 4 * 3600 + 59)).toBe('3d 4h');
    expect(formatDowntime(null)).toBe('--');
  });
});

describe("'Showing x-y of about n items' (an estimated total)", () => {
  it('says about, with thousands separated', () => {
    expect(showingItems(1, 25, 58000, true)).toBe('Showing 1-25 of about 58,000 items');
    expect(showingItems(3, 25, 1100, true)).toBe('Showing 51-75 of about 1,100 items');
  });
});

describe("'Showing x-y of n items'", () => {
  it.each([
    [1, 5, 12, 'Showing 1-5 of 12 items'],
    [2, 5, 12, 'Showing 6-10 of 12 items'],
    [3, 5, 12, 'Showing 11-12 of 12 items'],
    [1, 5, 3, 'Showing 1-3 of 3 items'],
    [1, 25, 0, 'Showing 0-0 of 0 items'],
    [4, 25, 100, 'Showing 76-100 of 100 items'],
  ])('page %d of size %d over %d', (page, size, total, text) => expect(showingItems(page, size, total)).toBe(text));
  it('hides the pager when everything fits on one page', () => {
    expect(pagerVisible(5, 5)).toBe(false);
    expect(pagerVisible(0, 5)).toBe(false);
    expect(pagerVisible(6, 5)).toBe(true);
  });
});

describe('dashboard URL state', () => {
  it('keeps SPEC thresholds and drops anything else', () => {
    const s = z.parse(dashboardSearchSchema, { cpu: '80', memory: 60, disk: 55, page: 'x', pageSize: '50', host: 'web' });
    expect(s).toEqual({ cpu: 80, memory: 60, disk: undefined, page: undefined, pageSize: 50, host: 'web' });
    expect(thresholdOf(s, 'cpu')).toBe(80);
    expect(thresholdOf(s, 'disk')).toBe(90);
  });
  it('builds hrefs and recognises the open dashboard', () => {
    expect(dashboardHref({ cpu: 70, host: '', page: undefined })).toBe('/?cpu=70');
    expect(dashboardHref({ host: '10.0' })).toBe('/?host=%2210.0%22');
    expect(dashboardHref({})).toBe('/');
    expect(openDashboard({ pathname: '/', search: { disk: 60 } })).toEqual({ cpu: undefined, memory: undefined, disk: 60, host: undefined, page: undefined, pageSize: undefined });
    expect(openDashboard({ pathname: '/servers', search: {} })).toBeNull();
  });
});
