import type { CommandContext, EntityKind } from '../../../commands/define-command';
import type { Alert } from '../../../server/contract/alerts';
import type { Server } from '../../../server/contract/servers';
import { getAlert, listAlerts } from '../../api/alerts';
import { getServer } from '../../api/servers';
import { serverIdFromPath } from '../../lib/server-view';
import { entityFromHit, type Entity } from './entities';

/** An alert's drawer: /notifications/show/:id. */
const ALERT_DRAWER = /^\/notifications\/show\/([^/]+)\/?$/;
const OPEN_SHOWN = 10;

const alertEntity = (a: Alert): Entity =>
  entityFromHit({ kind: 'alert', _id: a._id, alertname: a.alertname, hostname: a.hostname, summary: a.summary, status: a.status, severity: a.severity, createdAt: a.createdAt });
const serverEntity = (s: Server): Entity => entityFromHit({ kind: 'server', _id: s._id, hostname: s.hostname, ipaddress: s.ipaddress, operating_system: s.operating_system, state: s.state });

/**
 * What the open screen is about, as the first choices of an argument of that kind (issue 24 §8):
 * on an alert's drawer, that alert and its server; on a server's detail, that server and its open
 * alerts (Active first, newest first). Enter then takes the thing on screen; typing still finds
 * any other. Nothing elsewhere, for other kinds, or when a lookup fails (the picker works without).
 */
export async function contextEntities(ctx: CommandContext, kind: EntityKind | undefined): Promise<Entity[]> {
  if (kind !== 'alert' && kind !== 'server') return [];
  const pathname = ctx.location?.().pathname ?? '';
  try {
    const alertId = ALERT_DRAWER.exec(pathname)?.[1];
    if (alertId) {
      const { result: alert } = await getAlert(ctx.api, decodeURIComponent(alertId));
      if (kind === 'alert') return [alertEntity(alert)];
      return alert.serverId ? [serverEntity((await getServer(ctx.api, alert.serverId)).result)] : [];
    }
    const serverId = serverIdFromPath(pathname);
    if (!serverId) return [];
    if (kind === 'server') return [serverEntity((await getServer(ctx.api, serverId)).result)];
    const { result } = await listAlerts(ctx.api, { pageNumber: 1, pageSize: OPEN_SHOWN, filter: { serverId: { eq: serverId }, status: { in: ['firing', 'snoozed'] } }, sort: { by: 'createdAt', direction: 'desc' } });
    const active = (a: Alert) => (a.status === 'firing' ? 0 : 1);
    return [...result.data].sort((a, b) => active(a) - active(b)).map(alertEntity);
  } catch {
    return [];
  }
}
