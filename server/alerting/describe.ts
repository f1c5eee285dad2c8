import type { RuleMetric } from '../contract/alerts';
import { oneLine, toMarkdown, type AlertTextDoc, type TextRun } from '../contract/alert-text';

/** A pending condition whose grace period is over, with what its alert needs to say. */
export type DueCondition = {
  rule_id: string;
  subject: string;
  server_id: string;
  since: Date | string;
  name: string;
  type: string;
  metric: RuleMetric;
  threshold: number | null;
  time_limit: number;
  severity: 'critical' | 'warning' | 'normal' | 'info';
  notification_group_id: string | null;
  hostname: string;
  ipaddress: string;
  agent_port: number;
  operating_system: 'linux' | 'windows';
  cpu_usage: number | null;
  memory_usage: number | null;
  disk_usage: number | null;
  last_error: string | null;
  suppress_alarm: 'yes' | 'no';
  /** Forecast rules (issue 16): the latest forecast (server_forecasts). */
  forecast_hours?: number | null;
  forecast_full_at?: Date | string | null;
  forecast_slope?: number | null;
  forecast_now?: number | null;
};

export interface AlertText {
  alertname: string;
  summary: string;
  description: string;
  mountpoint: string | null;
  volume: string | null;
  service: string | null;
  value: number | null;
}

const pct = (v: number | null) => (v === null ? 'unknown' : `${(Math.round(v * 10) / 10).toFixed(1)}%`);
const minutes = (s: number) => (s % 60 === 0 ? `${s / 60} minute${s === 60 ? '' : 's'}` : `${s} seconds`);

/** The disk subject: Linux reports the root filesystem, Windows the lettered volumes together. */
export function diskSubject(os: 'linux' | 'windows'): string {
  return os === 'linux' ? '/' : '';
}

/**
 * Summary (plain text) and description of the alert a due condition opens. The description is
 * built as runs (server/contract/alert-text.ts): figures bold, the host's own text (mountpoint,
 * service, address, exporter error) as code, all of it literal; `description` is that written as
 * escaped markdown for the API.
 */
export function describe(c: DueCondition): AlertText {
  const doc = describeDoc(c);
  return { ...summaryOf(c), description: toMarkdown(doc) };
}

function summaryOf(c: DueCondition): Omit<AlertText, 'description'> {
  const base = { alertname: c.name, mountpoint: null, volume: null, service: null, value: null };
  const host = oneLine(c.hostname);
  switch (c.metric) {
    case 'cpu':
      return { ...base, value: c.cpu_usage, summary: `High CPU usage on ${host}` };
    case 'memory':
      return { ...base, value: c.memory_usage, summary: `High memory usage on ${host}` };
    case 'disk':
      return {
        ...base,
        value: c.disk_usage,
        mountpoint: c.operating_system === 'linux' ? c.subject || '/' : null,
        summary: `${c.severity === 'critical' ? 'Disk almost full' : 'High disk usage'} on ${host}`,
      };
    case 'instance_down':
      return { ...base, summary: `${host} is down` };
    case 'service_down':
      return { ...base, service: c.subject, summary: `Service ${oneLine(c.subject)} is down on ${host}` };
    case 'disk_forecast':
    case 'memory_forecast': {
      const hours = c.forecast_hours ?? null;
      return {
        ...base,
        value: hours === null ? null : Math.round(hours * 10) / 10,
        mountpoint: c.metric === 'disk_forecast' && c.operating_system === 'linux' ? '/' : null,
        summary: c.metric === 'disk_forecast' ? `Disk of ${host} full in about ${formatHours(hours)}` : `Memory of ${host} exhausted in about ${formatHours(hours)}`,
      };
    }
  }
}

export function describeDoc(c: DueCondition): AlertTextDoc {
  const held = minutes(c.time_limit);
  const above = (value: number | null): TextRun[] => [{ text: pct(value), strong: true }, { text: `, above the ${c.threshold}% threshold for ${held}.` }];
  switch (c.metric) {
    case 'cpu':
      return [[{ text: 'CPU usage is ' }, ...above(c.cpu_usage)]];
    case 'memory':
      return [[{ text: 'Memory usage is ' }, ...above(c.memory_usage)]];
    case 'disk': {
      const where: TextRun[] = c.operating_system === 'linux' ? [{ text: 'of ' }, { text: c.subject || '/', code: true }] : [{ text: 'over the lettered volumes' }];
      return [[{ text: 'Disk usage ' }, ...where, { text: ' is ' }, ...above(c.disk_usage)]];
    }
    case 'instance_down': {
      const doc: AlertTextDoc = [[{ text: 'The monitoring agent at ' }, { text: `${c.ipaddress}:${c.agent_port}`, code: true }, { text: ` has not answered for ${held}.` }]];
      if (c.last_error) doc.push([{ text: 'Last error: ' }, { text: c.last_error, code: true }]);
      return doc;
    }
    case 'service_down':
      return [[{ text: 'The agent has reported ' }, { text: c.subject, code: true }, { text: ` down for ${held}.` }]];
    case 'disk_forecast':
    case 'memory_forecast': {
      const when = c.forecast_full_at ? `${new Date(c.forecast_full_at).toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'an unknown time';
      const rate = `${(Math.round((c.forecast_slope ?? 0) * 100) / 100).toFixed(2)}% an hour`;
      return [
        [
          { text: `${c.metric === 'disk_forecast' ? 'Disk' : 'Memory'} usage is ` },
          { text: pct(c.forecast_now ?? null), strong: true },
          { text: ' and rising ' },
          { text: rate, strong: true },
          { text: ' (a robust linear fit over the last 6 hours): ' },
          { text: `100% at about ${when}`, strong: true },
          { text: `, within the ${c.threshold}-hour threshold.` },
        ],
      ];
    }
  }
}

/** "3.5 hours", "45 minutes", "2 days". */
export function formatHours(hours: number | null): string {
  if (hours === null) return 'an unknown time';
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} minutes`;
  if (hours < 48) return `${Math.round(hours * 10) / 10} hours`;
  return `${Math.round(hours / 24)} days`;
}
