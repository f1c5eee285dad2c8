import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { registerDemoFleet, type RegisteredHost } from './register';

/**
 * Registration of the demo fleet (issue 13's first start): hosts are registered once at the
 * address they got; a later start re-points a host that moved, and its open alerts follow it.
 */
describe('registerDemoFleet', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(async () => database?.close());

  const host = (ipaddress: string, port: number): RegisteredHost => ({ key: 'web-01', hostname: 'web-01', ipaddress, port, os: 'linux' });

  it('re-points a host that got its own address on a later start, and its open alerts show the new address; resolved ones keep theirs', async () => {
    // A first start where the host could not have its own address.
    expect(await registerDemoFleet(database, [host('127.0.0.1', 41234)])).toEqual({ created: 1, moved: 0 });
    const [server] = await database.query<{ id: string }>(`select id from servers where demo_key = 'web-01'`);
    const alert = (status: string, subject: string) =>
      database.query(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject) values ($1, 'web-01', '127.0.0.1', 'high_cpu_usage', 'resouce_alert', 'warning', $2, $3)`,
        [server!.id, status, subject],
      );
    await alert('firing', 'a');
    await alert('snoozed', 'b');
    await alert('resolved', '');

    expect(await registerDemoFleet(database, [host('127.0.10.1', 9100)])).toEqual({ created: 0, moved: 1 });
    expect(await database.query(`select ipaddress, agent_port from servers where id = $1`, [server!.id])).toEqual([{ ipaddress: '127.0.10.1', agent_port: 9100 }]);
    const rows = await database.query<{ status: string; instance: string }>(`select status, instance from alerts where server_id = $1 order by status`, [server!.id]);
    expect(rows).toEqual([
      { status: 'firing', instance: '127.0.10.1' },
      { status: 'resolved', instance: '127.0.0.1' },
      { status: 'snoozed', instance: '127.0.10.1' },
    ]);
    // The same address again moves nothing.
    expect(await registerDemoFleet(database, [host('127.0.10.1', 9100)])).toEqual({ created: 0, moved: 0 });
  });
});
