import type { RuleMetric } from '../contract/alerts';

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

/** Summary and description (markdown) of the alert a due condition opens. */
export function describe(c: DueCondition): AlertText {
  const held = minutes(c.time_limit);
  const base = { alertname: c.name, mountpoint: null, volume: null, service: null, value: null };
  const metric: RuleMetric = c.metric;
  switch (metric) {
    case 'cpu':
      return {
        ...base,
        value: c.cpu_usage,
        summary: `High CPU usage on ${c.hostname}`,
        description: `CPU usage is **${pct(c.cpu_usage)}**, above the ${c.threshold}% threshold for ${held}.`,
      };
    case 'memory':
      return {
        ...base,
        value: c.memory_usage,
        summary: `High memory usage on ${c.hostname}`,
        description: `Memory usage is **${pct(c.memory_usage)}**, above the ${c.threshold}% threshold for ${held}.`,
      };
    case 'disk': {
      const where = c.operating_system === 'linux' ? `of \`${c.subject || '/'}\`` : 'over the lettered volumes';
      return {
        ...base,
        value: c.disk_usage,
        mountpoint: c.operating_system === 'linux' ? c.subject || '/' : null,
        summary: `${c.severity === 'critical' ? 'Disk almost full' : 'High disk usage'} on ${c.hostname}`,
        description: `Disk usage ${where} is **${pct(c.disk_usage)}**, above the ${c.threshold}% threshold for ${held}.`,
      };
    }
    case 'instance_down':
      return {
        ...base,
        summary: `${c.hostname} is down`,
        description:
          `The monitoring agent at \`${c.ipaddress}:${c.agent_port}\` has not answered for ${held}.` +
          (c.last_error ? `\n\nLast error: \`${c.last_error.replace(/`/g, "'")}\`` : ''),
      };
    case 'service_down':
      return {
        ...base,
        service: c.subject,
        summary: `Service ${c.subject} is down on ${c.hostname}`,
        description: `The agent has reported \`${c.subject.replace(/`/g, "'")}\` down for ${held}.`,
      };
  }
}
