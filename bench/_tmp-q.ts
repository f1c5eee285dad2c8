import { openDatabase } from '../server/db/client';
const db = await openDatabase({});
await db.query(`insert into users (username, email, phonenumber, password_hash, role, status, created_at)
         select (array['user','ops','dev','admin','svc','anna','mike','lena'])[1 + i % 8] || i || '-' || substr(md5(i::text), 1, 6), 'person' || i || '@example.com', '+1 555', 'x',
                (array['admin','sysadmin','user'])[1 + i % 3], 'active', now() - (i || ' seconds')::interval
         from generate_series(1, 100000) as i`);
await db.query('analyze');
const time = async (label: string, q: string) => {
  const ts: number[] = [];
  for (let i = 0; i < 7; i++) { const t = performance.now(); await db.query(q); ts.push(performance.now() - t); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(50), ts[3]!.toFixed(1), 'ms median');
};
for (const n of ['u', 'us', 'use', 'user', 'zq', 'ops4']) {
  await time(`bounded ${n}`, `select count(*) from (select 1 from users where username_lc like '%${n}%' limit 10001) c`);
  await time(`page ${n}`, `select * from users where username_lc like '%${n}%' order by created_at asc, id asc limit 25`);
  await time(`explain ${n}`, `explain (format json) select 1 from users where username_lc like '%${n}%'`);
  await time(`old window ${n}`, `select *, count(*) over () from users where username_lc like '%${n}%' order by created_at asc, id asc limit 25`);
}
console.log((await db.query(`explain select * from users where username_lc like '%user%' order by created_at asc, id asc limit 25`)).map((r) => Object.values(r)[0]).join('\n'));
await db.close();
