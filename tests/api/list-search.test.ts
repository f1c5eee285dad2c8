import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containsText } from '../../server/db/list-query';
import { shortGrams, users } from '../../server/db/schema';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Issue 17 §4, migration 0024: one or two typed characters are found through the short-grams
 * index (trigrams cannot find them), with exactly `contains` (case-insensitive substring)
 * semantics; unfiltered lists count from trigger-kept row_counts, exactly.
 */
describe.each(await backends())('list search and counts on $name', (backend) => {
  let t: TestApp;
  let admin: string;
  // Names with the characters LIKE treats specially, upper case, digits and punctuation.
  const names = ['Ann_a', 'anna%', 'ANNA.b', 'bob-1', 'b_b', '%ok', 'x', 'xy', 'zz9', 'q-q.q', 'Été', '\\back', 'a b'];
  const usernames = names.map((n, i) => `${n}~${i}`);

  beforeAll(async () => {
    t = await startTestApp(backend);
    const a = await t.addUser({ role: 'admin', username: 'admin-search' });
    admin = await t.signIn(a.email, a.password);
    for (const [i, username] of usernames.entries()) await t.addUser({ role: 'user', username, email: `s${i}@example.com` });
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = (url: string, body: Record<string, unknown>) => t.call('POST', url, { cookie: admin, body: { pageNumber: 1, pageSize: 100, ...body } });

  it('contains with one or two characters matches exactly the usernames holding them, whatever their case', async () => {
    const all = [...usernames, 'admin-search'];
    for (const needle of ['a', 'A', '_', '%', '.', '-', 'b_', '%o', 'nn', 'NA', 'é', 'É', '\\', ' ', 'q', '9', 'zz', '~1', 'xy', 'yx']) {
      const res = await list('/api/users/all', { filter: { username: { contains: needle } } });
      expect(res.status, needle).toBe(200);
      const want = all.filter((u) => u.toLowerCase().includes(needle.toLowerCase())).sort();
      expect(res.body.result.data.map((u: { username: string }) => u.username).sort(), needle).toEqual(want);
      expect(res.body.result.count, needle).toBe(want.length);
    }
    const search = await list('/api/users/all', { search: 'é' });
    expect(search.body.result.data.map((u: { username: string }) => u.username)).toEqual(['Été~10']);
  });

  it('a one-character contains is an index lookup on the short grams, not a pass over every row', async () => {
    const where = containsText({ lower: users.usernameLc, grams: shortGrams(users.usernameLc) }, 'Q').find;
    const query = t.database.db.select({ one: sql`1` }).from(users).where(where);
    const plan = await t.database.db.transaction(async (tx) => {
      // Few rows here: without this the planner would rightly read them all.
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Record<string, string>[] };
      return res.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('users_username_lc_grams_idx');
    expect(plan).not.toMatch(/Seq Scan|Filter:/);
  });

  it('servers, services, groups and history find one or two characters too', async () => {
    const server = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'Web-Q1.example', ipaddress: '10.91.0.7', operating_system: 'linux' } });
    expect(server.status).toBe(201);
    await t.database.query(`insert into services (server_id, service_name, status) values ($1, 'nginx', 'active'), ($1, 'Qmail', 'down')`, [server.body.result._id]);
    const group = await t.call('POST', '/api/notification-groups', { cookie: admin, body: { name: 'On-Call Q', emailList: ['oncall@example.com'] } });
    expect(group.status).toBe(201);
    const names = (res: { body: any }, key: string) => res.body.result.data.map((r: Record<string, unknown>) => r[key]);
    expect(names(await list('/api/servers/all', { filter: { hostname: { contains: 'q' } } }), 'hostname')).toEqual(['Web-Q1.example']);
    expect(names(await list('/api/servers/all', { search: '.7' }), 'hostname')).toEqual(['Web-Q1.example']);
    expect(names(await list('/api/prometheus/get-services/all', { filter: { name: { contains: 'Q' } } }), 'service_name')).toEqual(['Qmail']);
    expect(names(await list('/api/prometheus/get-services/all', { search: 'q1' }), 'service_name').sort()).toEqual(['Qmail', 'nginx']);
    expect(names(await list('/api/notification-groups/all', { filter: { name: { contains: ' q' } } }), 'name')).toEqual(['On-Call Q']);
    const history = await list('/api/command-history/all', { filter: { username: { contains: 'h' }, command: { contains: 'po' } } });
    expect(history.body.result.count).toBeGreaterThan(0);
    for (const r of history.body.result.data) {
      expect(r.username.toLowerCase()).toContain('h');
      expect(r.command.toLowerCase()).toContain('po');
    }
  });

  it('unfiltered lists count every row exactly from row_counts, through inserts, deletes, cascades and folding', async () => {
    const total = async (url: string) => (await list(url, {})).body.result.count as number;
    const real = async (table: string) => Number((await t.database.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n);
    const deltas = async (table: string) => Number((await t.database.query<{ n: string }>(`select count(*) as n from row_counts where tbl = $1`, [table]))[0]!.n);
    // 100 single-row inserts are 100 delta rows; reading folds them into one.
    for (let i = 0; i < 100; i++) await t.database.query(`insert into users (username, email, phonenumber, password_hash, role) values ($1, $2, '', 'x', 'user')`, [`bulk-${i}`, `bulk-${i}@example.com`]);
    expect(await deltas('users')).toBeGreaterThan(64);
    expect(await total('/api/users/all')).toBe(await real('users'));
    expect(await deltas('users')).toBe(1);
    await t.database.query(`delete from users where username like 'bulk-%' and username < 'bulk-5'`);
    expect(await total('/api/users/all')).toBe(await real('users'));
    // Deleting a server deletes its services by cascade: both counts follow.
    const server = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: 'count-me', ipaddress: '10.91.0.8', operating_system: 'linux' } });
    await t.database.query(`insert into services (server_id, service_name, status) select $1, 'unit-' || g, 'active' from generate_series(1, 30) g`, [server.body.result._id]);
    expect(await total('/api/prometheus/get-services/all')).toBe(await real('services'));
    expect(await total('/api/servers/all')).toBe(await real('servers'));
    expect((await t.call('DELETE', `/api/servers/${server.body.result._id}`, { cookie: admin })).status).toBe(200);
    expect(await total('/api/prometheus/get-services/all')).toBe(await real('services'));
    expect(await total('/api/servers/all')).toBe(await real('servers'));
    expect(await total('/api/notification-groups/all')).toBe(await real('notification_groups'));
    expect(await total('/api/command-history/all')).toBe(await real('command_history'));
    // Every counted table agrees with its rows.
    for (const table of ['users', 'servers', 'services', 'notification_groups', 'command_history']) {
      const [row] = await t.database.query<{ n: string }>(`select coalesce(sum(n), 0) as n from row_counts where tbl = $1`, [table]);
      expect(Number(row!.n), table).toBe(await real(table));
    }
  });
});
