/**
 * Lists as people use them (issue 17 §4): users, servers, notification groups, services and the
 * command history at 100,000 rows, on PGlite and on the local PostgreSQL, filtered the way a
 * person types into the list's filter box — the first 1, 2, 3 and 4 characters of a real value —
 * one client at a time and then 8 clients at once. Target: p95 ≤ 25 ms per request.
 * (The alerts list has its own bench, bench/alerts-list.ts, with the same typed cases.)
 *
 * `npm run bench -- lists [--rows 100000] [--runs 12] [--backend pglite|postgres] [--list users]`
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import type { Database } from '../server/db/client';
import { users } from '../server/db/schema';
import { backends } from '../tests/api/harness';
import { machineLoad, numberOption } from './lib/options';
import { typedLoad, type TypedResult } from './lib/typed';

const ROWS = numberOption('--rows', 100_000);
const RUNS = numberOption('--runs', 12);
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

interface ListCase {
  name: string;
  url: string;
  /** Seeds ROWS rows (the users table also holds the bench admin). */
  seed: (q: (text: string, params?: unknown[]) => Promise<unknown>) => Promise<unknown>;
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

async function runOn(database: Database, list: ListCase): Promise<{ seedS: number; results: TypedResult[] }> {
  const q = (text: string, params?: unknown[]) => database.query(text, params);
  const t0 = performance.now();
  await list.seed(q);
  await q('analyze');
  const seedS = Math.round((performance.now() - t0) / 100) / 10;
  const hash = await hashPassword('bench-password');
  const [admin] = await database.db.insert(users).values({ username: 'bench-admin', email: 'bench-admin@example.com', phonenumber: '', passwordHash: hash, role: 'admin' }).returning();
  const app = await buildApp(testConfig(), { database });
  try {
    const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck' }, payload: { email: admin!.email, password: 'bench-password' } });
    const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;
    const results = await typedLoad(app, cookie, list.url, list.words, list.body, RUNS);
    return { seedS, results };
  } finally {
    await app.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const onlyBackend = arg('--backend');
  const onlyList = arg('--list');
  console.log(`Lists at ${ROWS} rows, typed prefixes (1-4 characters of real values), ${RUNS} rounds; 1 client, then 8 at once (target p95 ≤ 25 ms); ${machineLoad()}`);
  for (const backend of (await backends()).filter((b) => !onlyBackend || b.name === onlyBackend)) {
    for (const list of LISTS.filter((l) => !onlyList || l.name.startsWith(onlyList))) {
      const { database, drop } = await backend.open();
      try {
        const { seedS, results } = await runOn(database, list);
        console.log(`  ${backend.name} ${list.name} (seeded in ${seedS} s; ${machineLoad()}):`);
        for (const r of results) console.log(`    ${r.label.padEnd(28)} p50 ${String(r.p50).padStart(6)} ms  p95 ${String(r.p95).padStart(6)} ms  max ${String(r.max).padStart(6)} ms  (count ${r.counts})`);
      } finally {
        await drop();
      }
    }
  }
}
