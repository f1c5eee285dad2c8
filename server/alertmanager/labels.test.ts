import { describe, expect, it } from 'vitest';
import { webhookPayload } from '../channels/webhook';
import { alertmanagerLabels, labelKey, toPostable, type PushedAlertRow } from './labels';
import { instanceHost, severityOf } from './receive';
import { toAmMatcher } from './silence-mirror';

const row: PushedAlertRow = {
  id: '6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
  server_id: null,
  hostname: 'shop & co',
  instance: '',
  alertname: 'website_down',
  description: 'HTTP **503** from `shop`',
  summary: '',
  type: 'website_alert',
  severity: 'warning',
  status: 'resolved',
  service: null,
  mountpoint: null,
  created_at: new Date('2026-11-25T03:00:00Z'),
  resolved_at: new Date('2026-11-25T03:05:00Z'),
};

describe('Alertmanager labels and matching', () => {
  it('posts only the labels that have a value, plain-text description, a filled runbook template and endsAt = resolvedAt', () => {
    const p = toPostable(row, { publicUrl: 'https://ops.example', runbookUrl: 'https://wiki/{type}/{hostname}?a={id}', validUntil: new Date('2030-01-01T00:00:00Z') });
    expect(p.labels).toEqual({ alertname: 'website_down', severity: 'warning', hostname: 'shop & co', type: 'website_alert' });
    expect(p.annotations).toEqual({
      summary: 'website_down on shop & co',
      description: 'HTTP 503 from shop',
      runbook_url: `https://wiki/website_alert/shop%20%26%20co?a=${row.id}`,
      opsdeck_alert_id: row.id,
    });
    expect(p.endsAt).toBe('2026-11-25T03:05:00.000Z');
    expect(p.generatorURL).toBe(`https://ops.example/notifications/show/${row.id}`);
    const firing = toPostable({ ...row, status: 'snoozed' }, { publicUrl: 'x', runbookUrl: '{publicUrl}/n/{id}', validUntil: new Date('2030-01-01T00:00:00Z') });
    expect(firing.endsAt).toBe('2030-01-01T00:00:00.000Z');
    expect(firing.annotations.runbook_url).toBe(`x/n/${row.id}`);
    expect(labelKey({ b: '1', a: '2' })).toBe(labelKey({ a: '2', b: '1' }));
  });

  it('the push and the webhook channel build their labels with one builder: the same alert gets the same labels either way', () => {
    const full: PushedAlertRow = { ...row, server_id: '0b1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f', instance: '10.0.0.9', service: 'nginx', mountpoint: '', status: 'firing', resolved_at: null };
    const expected = { alertname: 'website_down', severity: 'warning', hostname: 'shop & co', instance: '10.0.0.9', server_id: full.server_id!, type: 'website_alert', service: 'nginx' };
    const pushed = toPostable(full, { publicUrl: 'https://ops.example', runbookUrl: '{publicUrl}', validUntil: new Date('2030-01-01T00:00:00Z') }).labels;
    const alert = {
      id: full.id,
      hostname: full.hostname,
      instance: full.instance,
      alertname: full.alertname,
      severity: 'warning' as const,
      summary: full.summary,
      description: full.description,
      mountpoint: full.mountpoint,
      volume: null,
      service: full.service,
      createdAt: full.created_at,
      resolvedAt: null,
      serverId: full.server_id,
      type: full.type,
    };
    const hooked = webhookPayload({ alert, transition: 'firing', link: 'https://ops.example/x', publicUrl: 'https://ops.example', extra: {} }, 'hook').alerts[0]!.labels;
    expect(alertmanagerLabels({ ...alert })).toEqual(expected);
    expect(pushed).toEqual(expected);
    expect(hooked).toEqual(expected);
  });

  it('finds the host of an instance label however it is written', () => {
    expect(instanceHost('10.0.0.5:9100')).toBe('10.0.0.5');
    expect(instanceHost('web-1')).toBe('web-1');
    expect(instanceHost('[::1]:9100')).toBe('::1');
    expect(instanceHost('fe80::1')).toBe('fe80::1');
    expect(instanceHost('https://shop.example.com:8443/health')).toBe('shop.example.com');
  });

  it('maps free-form severities onto the four', () => {
    expect(['critical', 'Page', 'error', 'P1'].map(severityOf)).toEqual(['critical', 'critical', 'critical', 'critical']);
    expect(['info', 'low', 'none'].map(severityOf)).toEqual(['info', 'info', 'info']);
    expect(severityOf('normal')).toBe('normal');
    expect([undefined, '', 'warning', 'major'].map(severityOf)).toEqual(['warning', 'warning', 'warning', 'warning']);
  });

  it('translates matchers of pushed labels, and names why a server-label matcher cannot be mirrored', () => {
    expect(toAmMatcher({ name: 'hostname', op: '=', value: 'a' })).toEqual({ name: 'hostname', value: 'a', isRegex: false, isEqual: true });
    expect(toAmMatcher({ name: 'severity', op: '!=', value: 'info' })).toEqual({ name: 'severity', value: 'info', isRegex: false, isEqual: false });
    expect(toAmMatcher({ name: 'alertname', op: '=~', value: 'Disk.*' })).toEqual({ name: 'alertname', value: 'Disk.*', isRegex: true, isEqual: true });
    expect(toAmMatcher({ name: 'service', op: '!~', value: 'x|y' })).toEqual({ name: 'service', value: 'x|y', isRegex: true, isEqual: false });
    expect(toAmMatcher({ name: 'label.env', op: '=', value: 'prod' })).toMatch(/server label/);
  });
});
