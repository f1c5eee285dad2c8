import type { Alert } from '../../server/contract/alerts';
import type { Api } from '../../src/api/client';
import { listAlerts } from '../../src/api/alerts';

/**
 * How people name an alert on the command line: `high_cpu_usage@db-02`, its rule's name at its
 * host. That names the open (Active or Snoozed) alert of that name on that host; when a host has
 * two open alerts of one name (two services down, two full disks) the service, mount point or
 * volume follows a colon: `service_down@web-01:nginx`. With none open it names the newest one,
 * so `alert.reopen high_cpu_usage@db-02` finds the one just resolved.
 */
export type AlertRefFields = Pick<Alert, 'alertname' | 'hostname' | 'service' | 'mountpoint' | 'volume'>;

/** What tells two open alerts of one name on one host apart. */
export const alertDetail = (a: Pick<Alert, 'service' | 'mountpoint' | 'volume'>): string | null => a.service || a.mountpoint || a.volume || null;

export const alertRef = (a: AlertRefFields, withDetail = false): string => {
  const detail = withDetail ? alertDetail(a) : null;
  return `${a.alertname}@${a.hostname}${detail ? `:${detail}` : ''}`;
};

export interface ParsedAlertRef {
  alertname: string;
  hostname: string;
}

/** `name@host` or `name@host:detail`, or null for anything else (an id, search words). */
export function parseAlertRef(text: string): ParsedAlertRef | null {
  const m = /^([^\s@]+)@(\S+)$/.exec(text.trim());
  return m ? { alertname: m[1]!, hostname: m[2]! } : null;
}

const OPEN = ['firing', 'snoozed'] as const;
const isOpen = (a: Pick<Alert, 'status'>) => a.status !== 'resolved';
/** Active before Snoozed, each newest first: the order the pickers list open alerts in. */
const byOpenFirst = (a: Alert, b: Alert) => Number(a.status === 'snoozed') - Number(b.status === 'snoozed') || b.createdAt.localeCompare(a.createdAt);

/**
 * The alerts a ref names: the open ones of that name on that host (narrowed by its detail), or
 * the newest one when none is open. Several means the ref is ambiguous. A host whose name holds a
 * colon (an Alertmanager `instance`) is tried whole first.
 */
export async function alertsByRef(api: Api, ref: ParsedAlertRef): Promise<Alert[]> {
  const lookup = async (hostname: string, detail: string | null) => {
    const { result } = await listAlerts(api, { pageNumber: 1, pageSize: 50, filter: { alertname: { eq: ref.alertname }, hostname: { eq: hostname } }, sort: { by: 'createdAt', direction: 'desc' } });
    const found = detail === null ? result.data : result.data.filter((a) => alertDetail(a) === detail);
    const open = found.filter(isOpen).sort(byOpenFirst);
    return open.length ? open : found.slice(0, 1);
  };
  const whole = await lookup(ref.hostname, null);
  if (whole.length) return whole;
  const colon = ref.hostname.indexOf(':');
  return colon > 0 ? lookup(ref.hostname.slice(0, colon), ref.hostname.slice(colon + 1)) : [];
}

/**
 * Tab completion of an alert argument: the open alerts whose host or name starts with the typed
 * word (`db` → the open alerts of db-01, db-02…), as refs, Active first and newest first. A ref
 * gets its detail where another open alert of the result shares its name and host.
 */
export async function completeAlertRefs(api: Api, typed: string, limit = 50): Promise<string[]> {
  const word = typed.trim().toLowerCase();
  // The list's search matches host, name, service and summary; a partly typed ref searches by its host.
  const at = word.indexOf('@');
  const search = at >= 0 ? word.slice(at + 1).split(':')[0]! : word;
  const { result } = await listAlerts(api, {
    pageNumber: 1,
    pageSize: 100,
    filter: { status: { in: [...OPEN] } },
    ...(search ? { search } : {}),
    sort: { by: 'createdAt', direction: 'desc' },
  });
  const open = result.data.filter((a) => isOpen(a)).sort(byOpenFirst);
  const shared = new Map<string, number>();
  for (const a of open) shared.set(alertRef(a), (shared.get(alertRef(a)) ?? 0) + 1);
  const refs = open.map((a) => alertRef(a, (shared.get(alertRef(a)) ?? 0) > 1));
  const starts = (s: string) => s.toLowerCase().startsWith(word);
  return [...new Set(open.flatMap((a, i) => (starts(a.hostname) || starts(a.alertname) || starts(refs[i]!) ? [refs[i]!] : [])))].slice(0, limit);
}
