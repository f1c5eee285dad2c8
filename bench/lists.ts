/**
 * Lists as people use them (issue 17 §4), on PGlite and on the local PostgreSQL:
 * - users, servers, alerts, notification groups, services and the command history at 100,000
 *   rows, filtered the way a person types into the list's filter box — the first 1, 2, 3 and 4
 *   characters of a real value — one client at a time and then 8 clients at once (8 requests
 *   always in flight);
 * - the alerts list at 1,000,000 alerts: every filter the Notifications page and the palette use,
 *   date ranges included ("created in the last 7 days"), one request at a time.
 * Target: p95 ≤ 25 ms per request. Each figure has the CPU it cost beside it (this process — the
 * app, and PGlite, which runs in it — plus PostgreSQL's backends), since wall time on a shared
 * machine grows with the load average; the load is printed beside each list. Ends with one
 * summary table (markdown) of every figure.
 *
 * `npm run bench -- lists [--backend pglite|postgres] [--rows 100000] [--alert-rows 1000000]
 *   [--runs 6] [--case-runs 40] [--list users|servers|alerts|groups|services|history|alerts-1m]`
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { backends } from '../tests/api/harness';
import { alertCases, measureCase, seedAlerts, type CaseResult } from './alerts-list';
import { cpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';
import { typedLoad } from './lib/typed';

const ROWS = numberOption('--rows', 100_000);
const ALERT_ROWS = numberOption('--alert-rows', 1_000_000);
const RUNS = numberOption('--runs', 6);
const CASE_RUNS = numberOption('--case-runs', 40);
const TARGET_MS = 25;
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

interface ListCase {
  name: string;
  url: string;
  /** Seeds ROWS rows (the users table also holds the bench admin). */
  seed: (q: (text: string, params?: unknown[]) => Promise<unknown>, database: Database) => Promise<unknown>;
  /** Whole values a person would type the start of. */
  words: string[];
  body: (needle: string) => Record<string, unknown>;
}

const roles = `array['web','api','db','cache','worker','edge','log','mq','ci','win-iis','win-sql','win-ad']`;
const hostnameOf = (g: string) => `(${roles})[1 + ${g} % 12] || '-' || lpad((${g} / 12 + 1)::text, 5, '0') || '.' || (array['prod','staging','eu1','us2'])[1 + ${g} % 4] || '.example.net'`;

export const LISTS: ListCase[] = [
  {
    name: 'users (username contains)',
    url: '/api/users/all',
    seed: (q) =>
      q(`insert into users (username, email, phonenumber, password_hash, role, status, created_at)
         select (array['user','ops','dev','admin','svc','anna','mike','lena'])[1 + i % 8] || i || '-' || substr(md5(i::text), 1, 6), 'person' || i || '@example.com', '+1 555 ' || lpad((i % 10000)::text, 4, '0'), 'x',
                (array['admin','sysadmin','user'])[1 + i % 3], 'active', now() - (i || ' seconds')::interval
         from generate_series(1, ${ROWS}) as i`),
    words: ['user', 'anna', 'mike', 'ops4'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { username: { contains: needle } } }),
  },
  {
    name: 'servers (hostname contains)',
    url: '/api/servers/all',
    seed: (q) =>
      q(`insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, state, cpu_usage, memory_usage, disk_usage, created_at)
         select ${hostnameOf('g')}, '10.' || (g / 62500) || '.' || (g / 250 % 250) || '.' || (1 + g % 250), 9100, case when g % 12 >= 9 then 'windows' else 'linux' end, true, 'up', 20, 40, 50, now() - (g || ' seconds')::interval
         from generate_series(0, ${ROWS - 1}) g`),
    words: ['web-', 'db-0', 'cach', 'win-'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { hostname: { contains: needle } } }),
  },
  {
    // Alerts over 1,000 servers as a year of a real fleet's (bench/alerts-list.ts); hostnames like web-001.prod.example.net.
    name: 'alerts (hostname contains)',
    url: '/api/alerts/all',
    seed: (_q, database) => seedAlerts(database, { alerts: ROWS }),
    words: ['web-', 'db-0', 'cach', 'win-'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { hostname: { contains: needle } } }),
  },
  {
    name: 'groups (name contains)',
    url: '/api/notification-groups/all',
    seed: (q) =>
      q(`insert into notification_groups (name, description, email_list, created_at)
         select (array['ops','oncall','dba','network','security','platform','payments','search'])[1 + g % 8] || '-' || (array['eu','us','apac'])[1 + g % 3] || '-' || g, '', '{}', now() - (g || ' seconds')::interval
         from generate_series(1, ${ROWS}) g`),
    words: ['onca', 'dba-', 'secu', 'paym'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { name: { contains: needle } } }),
  },
  {
    name: 'services (name contains)',
    url: '/api/prometheus/get-services/all',
    seed: async (q) => {
      // 10 services on each of ROWS/10 servers.
      await q(`insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, state, created_at)
               select 'svc-' || ${hostnameOf('g')}, '10.200.' || (g / 250) || '.' || (1 + g % 250), 9100, 'linux', true, 'up', now() - (g || ' seconds')::interval
               from generate_series(0, ${ROWS / 10 - 1}) g`);
      await q(`insert into services (server_id, service_name, status, created_at)
               select s.id, (array['nginx','postgresql@15-main','redis-server','docker','ssh','cron','rsyslog','php8.2-fpm','haproxy','node-exporter'])[1 + k], case when k = 3 and s.n % 50 = 0 then 'failed' else 'active' end, now() - (s.n * 10 + k || ' seconds')::interval
               from (select id, row_number() over (order by hostname) as n from servers where hostname like 'svc-%') s, generate_series(0, 9) k`);
    },
    words: ['ngin', 'post', 'redi', 'dock'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { name: { contains: needle } } }),
  },
  {
    name: 'history (username contains)',
    url: '/api/command-history/all',
    seed: (q) =>
      q(`insert into command_history (origin, actor_kind, username, role, command, source, outcome, duration_ms, created_at)
         select 'server', 'user', (array['anna','mike','lena','ops-bot','admin','dev-jo'])[1 + g % 6], 'admin',
                (array['server.show','alert.resolve','alert.snooze','server.edit','group.edit','user.show'])[1 + g % 6], 'palette', 'ok', 12, now() - (g || ' seconds')::interval
         from generate_series(1, ${ROWS}) g`),
    words: ['anna', 'mike', 'lena', 'ops-'],
    body: (needle) => ({ pageNumber: 1, pageSize: 25, filter: { username: { contains: needle } } }),
  },
];

interface Row {
  backend: string;
  list: string;
  what: string;
  p50: number;
  p95: number;
  /** CPU ms per request: p50 (one client) or the mean (8 clients). */
  cpu: number;
  cpuP95?: number;
  counts: string;
  load: string;
}

async function signedIn(database: Database): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; cookie: string }> {
  const hash = await hashPassword('bench-password');
  const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
  const app = await buildApp(testConfig(), { database });
  const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
  return { app, cookie: `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}` };
}

const load1 = () => machineLoad().replace('load average ', '').replace(' on 2 cores', '');

async function typedList(backend: string, database: Database, list: ListCase): Promise<Row[]> {
  const q = (text: string, params?: unknown[]) => database.query(text, params);
  const t0 = performance.now();
  await list.seed(q, database);
  await q('analyze');
  const seedS = Math.round((performance.now() - t0) / 100) / 10;
  const { app, cookie } = await signedIn(database);
  try {
    const results = await typedLoad(app, cookie, list.url, list.words, list.body, RUNS, await cpuMeter(database));
    const load = load1();
    console.log(`  ${backend} ${list.name} at ${ROWS} rows (seeded in ${seedS} s; ${machineLoad()}):`);
    for (const r of results) console.log(`    ${r.label.padEnd(24)} p50 ${String(r.p50).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  max ${String(r.max).padStart(6)} ms | CPU ${r.label.includes('clients') ? `${String(r.cpuP50).padStart(5)} ms/request` : `p50 ${String(r.cpuP50).padStart(5)} p95 ${String(r.cpuP95).padStart(5)} ms`}  (${r.requests} requests) ${r.split ?? r.counts}`);
    return results.map((r) => ({ backend, list: list.name, what: r.label, p50: r.p50, p95: r.p95, cpu: r.cpuP50, cpuP95: r.label.includes('clients') ? undefined : r.cpuP95, counts: r.split ?? r.counts, load }));
  } finally {
    await app.close();
  }
}

async function alertsAtScale(backend: string, database: Database): Promise<Row[]> {
  const t0 = performance.now();
  await seedAlerts(database, { alerts: ALERT_ROWS });
  const seedS = Math.round((performance.now() - t0) / 100) / 10;
  const { app, cookie } = await signedIn(database);
  try {
    const meter = await cpuMeter(database);
    const servers = await database.query<{ id: string }>('select id from servers order by hostname');
    console.log(`  ${backend} alerts at ${ALERT_ROWS} alerts over 1,000 servers (seeded in ${seedS} s), ${CASE_RUNS} requests per case:`);
    const rows: Row[] = [];
    for (const c of alertCases(servers)) {
      const r: CaseResult = await measureCase(app, cookie, meter, '/api/alerts/all', c, CASE_RUNS);
      console.log(`    ${c.name.padEnd(48)} p50 ${String(r.p50).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  max ${String(r.max).padStart(6)} ms | CPU p50 ${String(r.cpuP50).padStart(5)} p95 ${String(r.cpuP95).padStart(5)} ms  (${r.count} matches; ${machineLoad()})`);
      rows.push({ backend, list: `alerts at ${ALERT_ROWS}`, what: c.name, p50: r.p50, p95: r.p95, cpu: r.cpuP50, cpuP95: r.cpuP95, counts: r.count, load: load1() });
    }
    return rows;
  } finally {
    await app.close();
  }
}

function summary(rows: Row[]): string {
  const lines = [
    `| Backend | List | Case | p50 ms | p95 ms | CPU ms/request (p50 / p95; 8 clients: mean) | p95 ≤ ${TARGET_MS} ms | Counts | Load |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows)
    lines.push(`| ${r.backend} | ${r.list} | ${r.what} | ${r.p50} | ${r.p95} | ${r.cpuP95 === undefined ? r.cpu : `${r.cpu} / ${r.cpuP95}`} | ${r.p95 <= TARGET_MS ? 'yes' : '**no**'} | ${r.counts} | ${r.load} |`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const onlyBackend = arg('--backend');
  const onlyList = arg('--list');
  console.log(`Lists at ${ROWS} rows, typed prefixes (1-4 characters of real values), ${RUNS} rounds; 1 client, then 8 at once; alerts at ${ALERT_ROWS}; target p95 ≤ ${TARGET_MS} ms; ${machineLoad()}`);
  const rows: Row[] = [];
  for (const backend of (await backends()).filter((b) => !onlyBackend || b.name === onlyBackend)) {
    for (const list of LISTS.filter((l) => !onlyList || (onlyList !== 'alerts-1m' && l.name.startsWith(onlyList)))) {
      const { database, drop } = await backend.open();
      try {
        rows.push(...(await typedList(backend.name, database, list)));
      } finally {
        await drop();
      }
    }
    if (!onlyList || onlyList === 'alerts-1m') {
      const { database, drop } = await backend.open();
      try {
        rows.push(...(await alertsAtScale(backend.name, database)));
      } finally {
        await drop();
      }
    }
  }
  console.log(`\nSummary (${machineLoad()} at the end; figures taken under a load average above ~1 are not comparable with a quiet machine's):\n`);
  console.log(summary(rows));
  const over = rows.filter((r) => r.p95 > TARGET_MS).length;
  console.log(`\n${rows.length - over} of ${rows.length} figures meet p95 ≤ ${TARGET_MS} ms.`);
}
