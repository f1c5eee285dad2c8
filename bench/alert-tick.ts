/**
 * One alert evaluation tick over 1,000 agent-configured servers × 6 default rules, on PGlite and
 * on the local PostgreSQL (each in a database of its own: tests/api/harness.ts `backends()`).
 * Target (issue 4 §8): under 50 ms.
 *
 * The fleet is seeded with live figures as a real one has them: most hosts healthy, some above
 * a threshold (CPU, memory, disk warning and critical), some down, some with a service down,
 * plus 20,000 resolved alerts of history. It is then run for 20 simulated minutes so the
 * measured ticks see every state at once: grace periods running, alerts firing, some resolving.
 * Each warm tick moves the clock 15 s, marks the servers scraped (what monitoring does; not
 * timed) and changes a few hosts' figures so conditions keep starting, clearing, firing and
 * resolving; only `evaluator.tick()` is timed.
 *
 * Issue 14 routing (on unless `--no-routing`): servers carry labels (env, team), every rule
 * notifies a group with an escalation step (15 min), a repeat interval (10 min) and an
 * acknowledgement reminder; CPU rules detect flapping (4 changes in 30 min) and disk rules keep a
 * minimum interval (30 min); 200 active silences (by hostname, hostname regex, label and
 * alertname, alertname regex) and 50 maintenance windows (one-off by server, daily and weekly by
 * label, monthly by hostname regex, in three time zones). Some silences and windows start or end
 * during the measured ticks, so those ticks re-check the open alerts the change concerns (all of
 * them when it has only regex matchers), as they do in real use.
 *
 * CPU per tick: this process (PGlite runs in it) plus, on PostgreSQL, the database's backends
 * (bench/lib/cpu.ts), so both backends' figures are the tick's whole cost whatever the load.
 */
import { AlertEvaluator } from '../server/alerting/evaluator';
import type { Database } from '../server/db/client';
import { backends } from '../tests/api/harness';
import { cpuMeter } from './lib/cpu';
import { machineLoad, numberOption } from './lib/options';

const SERVERS = numberOption('--servers', 1000);
const TICKS = numberOption('--ticks', 120);
const ROUTING = !process.argv.includes('--no-routing');
const WARMUP = 8;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function seed(database: Database, t0: Date): Promise<void> {
  const q = (text: string, params?: unknown[]) => database.query(text, params);
  // g % 100 picks a host's trouble: 0–3 hot CPU, 4–7 memory high, 8–11 disk over 85 %, 12–13
  // disk over 95 %, 14–15 down; every 25th host has one service down. The rest are healthy with
  // figures spread over 5–75 %.
  await q(
    `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed, state, state_changed_at, last_scraped_at, cpu_usage, memory_usage, disk_usage)
     select 'host-' || lpad(g::text, 4, '0'), '10.60.' || (g / 250) || '.' || (g % 250 + 1), 9100,
            case when g % 3 = 2 then 'windows' else 'linux' end, true, true,
            case when g % 100 in (14, 15) then 'down' else 'up' end, $1::timestamptz, $1::timestamptz,
            case when g % 100 in (0, 1, 2, 3) then 92 + (g % 7) else 5 + (g * 37 % 55) end,
            case when g % 100 in (4, 5, 6, 7) then 91 + (g % 8) else 30 + (g * 13 % 45) end,
            case when g % 100 in (8, 9, 10, 11) then 86 + (g % 8) when g % 100 in (12, 13) then 96 + (g % 3) else 20 + (g * 7 % 50) end
     from generate_series(1, ${SERVERS}) g`,
    [t0.toISOString()],
  );
  await q(
    `insert into services (server_id, service_name, status)
     select s.id, 'svc-' || n, case when n = 1 and right(s.hostname, 2)::int % 25 = 0 then 'down' else 'up' end
     from servers s, generate_series(1, 6) n`,
  );
  // History: 20,000 resolved alerts over the last 30 days (the partial unique index ignores them).
  await q(
    `insert into alerts (server_id, rule_id, subject, hostname, instance, alertname, type, severity, status, summary, created_at, updated_at, resolved_at)
     select s.id, null, '', s.hostname, s.ipaddress, (array['high_cpu_usage','high_memory_usage','high_disk_usage','instance_down'])[1 + g % 4],
            'resouce_alert', 'warning', 'resolved', 'history', $1::timestamptz - (g || ' minutes')::interval, $1::timestamptz, $1::timestamptz
     from generate_series(1, 20000) g join servers s on s.hostname = 'host-' || lpad((1 + g % ${SERVERS})::text, 4, '0')`,
    [t0.toISOString()],
  );
  await q('analyze');
}

/**
 * Issue 14's routing load, seeded after the first tick created the rules. The measured ticks run
 * from T0 + 25 min (after 100 ticks of 15 s) to about T0 + 57 min.
 */
export async function seedRouting(database: Database, t0: Date): Promise<{ silences: number; windows: number }> {
  const q = (text: string, params?: unknown[]) => database.query(text, params);
  const T = t0.getTime();
  const iso = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
  const host = (n: number) => `host-${String(1 + (((n % SERVERS) + SERVERS) % SERVERS)).padStart(4, '0')}`;
  await q(`update servers set labels = jsonb_build_object('env', (array['prod','staging','dev','qa'])[1 + right(hostname, 4)::int % 4], 'team', 'team-' || right(hostname, 4)::int % 20)`);
  const [dba] = await database.query<{ id: string }>(`insert into notification_groups (name, email_list) values ('bench-dba', '{dba@example.com}') returning id`);
  const [ops] = await database.query<{ id: string }>(
    `insert into notification_groups (name, email_list, escalation_steps, repeat_interval_seconds, ack_reminder_seconds) values ('bench-ops', '{ops@example.com}', $1::jsonb, 600, 3600) returning id`,
    [JSON.stringify([{ afterSeconds: 900, groupId: dba!.id, userIds: [] }])],
  );
  await q(`update alert_rules set notification_group_id = $1`, [ops!.id]);
  await q(`update alert_rules set flap_transitions = 4, flap_window_seconds = 1800 where name = 'high_cpu_usage'`);
  await q(`update alert_rules set min_notify_interval_seconds = 1800 where name in ('high_disk_usage', 'critical_disk_usage')`);

  // 200 silences, all active at T0 but 10 that start during the measurement; 20 end during it.
  const silences: [string, string, string, string][] = [];
  for (let i = 0; i < 200; i++) {
    const matchers =
      i % 4 === 0
        ? [{ name: 'hostname', op: '=', value: host(i * 7) }]
        : i % 4 === 1
          ? [{ name: 'hostname', op: '=~', value: `${host(i * 11)}|${host(i * 11 + 500)}` }, { name: 'severity', op: '=', value: 'warning' }]
          : i % 4 === 2
            ? [{ name: 'label.team', op: '=', value: `team-${i % 20}` }, { name: 'alertname', op: '=', value: 'high_memory_usage' }, { name: 'label.env', op: '!=', value: 'prod' }]
            : [{ name: 'alertname', op: '=~', value: 'high_.*_usage' }, { name: 'hostname', op: '=~', value: `host-0${i % 10}${(i * 3) % 10}.` }, { name: 'service', op: '!~', value: 'svc-[0-9]+' }];
    const starts = i >= 180 && i < 190 ? iso(30 + (i - 180) * 2) : iso(-60);
    const ends = i < 20 ? iso(28 + i * 1.5) : iso(24 * 60 + i);
    silences.push([JSON.stringify(matchers), starts, ends, `bench silence ${i}`]);
  }
  await q(
    `insert into silences (matchers, starts_at, ends_at, comment, created_by_name)
     select m::jsonb, s::timestamptz, e::timestamptz, c, 'bench' from unnest($1::text[], $2::text[], $3::text[], $4::text[]) as x(m, s, e, c)`,
    [silences.map((x) => x[0]), silences.map((x) => x[1]), silences.map((x) => x[2]), silences.map((x) => x[3])],
  );

  // 50 windows: 20 one-off on 5 servers each (6 in force at T0, 4 ending and 4 starting during
  // the measurement, the rest past or later), 15 daily or weekly by label in a zone, 15 monthly by
  // hostname regex ("every 3rd Tuesday"). Start and end are the first occurrence.
  const windows: [string, string[], string, string, string, string, string | null][] = [];
  for (let i = 0; i < 20; i++) {
    const names = [0, 1, 2, 3, 4].map((k) => host(i * 50 + k * 3 + 1));
    const [a, b] = i < 6 ? [-30, 120] : i < 10 ? [-30, 30 + (i - 6) * 5] : i < 14 ? [28 + (i - 10) * 6, 90] : i < 17 ? [-600, -300] : [600, 720];
    windows.push([`one-off ${i}`, names, '[]', iso(a), iso(b), 'UTC', null]);
  }
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York'];
  for (let i = 0; i < 15; i++) {
    const matchers = [{ name: 'label.env', op: '=', value: i % 2 ? 'dev' : 'qa' }, { name: 'label.team', op: '=', value: `team-${i}` }];
    // One daily window's occurrence starts during the measurement; the others a day or more away.
    const start = i === 0 ? 40 : 6 * 60 + i * 37;
    windows.push([`by label ${i}`, [], JSON.stringify(matchers), iso(start - 24 * 60 * 3), iso(start - 24 * 60 * 3 + 120), zones[i % 3]!, i % 3 === 2 ? 'FREQ=WEEKLY' : 'FREQ=DAILY']);
  }
  for (let i = 0; i < 15; i++) {
    const matchers = [{ name: 'hostname', op: '=~', value: `host-${i % 10}[0-9]{2}${(i * 7) % 10}` }];
    windows.push([`monthly ${i}`, [], JSON.stringify(matchers), '2026-01-20T02:00:00Z', '2026-01-20T04:00:00Z', zones[i % 3]!, 'FREQ=MONTHLY;BYDAY=TU;BYSETPOS=3']);
  }
  for (const [name, hosts, matchers, starts, ends, tz, rrule] of windows) {
    await q(
      `insert into maintenance_windows (name, server_ids, matchers, starts_at, ends_at, timezone, rrule, created_by_name)
       values ($1, array(select id from servers where hostname = any($2::text[])), $3::jsonb, $4, $5, $6, $7, 'bench')`,
      [name, hosts, matchers, starts, ends, tz, rrule],
    );
  }
  await q('analyze');
  return { silences: silences.length, windows: windows.length };
}

export async function runAlertTickBench() {
  const results: Record<string, unknown>[] = [];
  const only = process.argv.includes('--backend') ? process.argv[process.argv.indexOf('--backend') + 1] : undefined;
  for (const backend of (await backends()).filter((b) => !only || b.name === only)) {
    const { database, drop } = await backend.open();
    try {
      const T0 = Date.parse('2026-06-01T00:00:00Z');
      let clock = T0;
      const evaluator = new AlertEvaluator(database, { enabled: false, evalIntervalS: 15, autoDefaults: true, staleAfterS: 60 }, quiet, () => clock);
      await seed(database, new Date(T0));
      const scrape = () => database.query(`update servers set last_scraped_at = $1 where state = 'up'`, [new Date(clock).toISOString()]);
      // A few hosts change each tick, and change back a few minutes later, so grace periods
      // start, clear and run out, and alerts fire and resolve all along while the number of
      // open alerts stays steady: one host's CPU goes over 90 % for 6 minutes (its alert fires
      // after 5), one disk over 95 % for 3 minutes, one host is down for 2 minutes, one service
      // is down for 4 minutes, and one CPU spike lasts 1 minute (it opens nothing).
      const name = (n: number) => `host-${String(1 + (((n % SERVERS) + SERVERS) % SERVERS)).padStart(4, '0')}`;
      const churn = async (i: number) => {
        const at = new Date(clock).toISOString();
        await database.query(`update servers set cpu_usage = 95 where hostname = $1`, [name(i * 97)]);
        await database.query(`update servers set cpu_usage = 40 where hostname = $1`, [name((i - 24) * 97)]);
        await database.query(`update servers set cpu_usage = 97 where hostname = $1`, [name(i * 89 + 5)]);
        await database.query(`update servers set cpu_usage = 35 where hostname = $1`, [name((i - 4) * 89 + 5)]);
        await database.query(`update servers set disk_usage = 97 where hostname = $1`, [name(i * 211 + 50)]);
        await database.query(`update servers set disk_usage = 50 where hostname = $1`, [name((i - 12) * 211 + 50)]);
        await database.query(`update servers set state = 'down' where hostname = $1`, [name(i * 389 + 7)]);
        await database.query(`update servers set state = 'up', last_scraped_at = $2 where hostname = $1`, [name((i - 8) * 389 + 7), at]);
        for (const [n, status] of [[i * 151 + 3, 'down'], [(i - 16) * 151 + 3, 'up']] as const) {
          await database.query(`update services set status = $2 where service_name = 'svc-2' and server_id = (select id from servers where hostname = $1)`, [name(n), status]);
        }
      };
      // The evaluator's loop (runTick) runs the default-rules pass before its first tick and then
      // before every fourth, between ticks and in its own transaction: so does this bench, with its
      // cost measured apart (like VACUUM below), not in the tick's figures.
      let n = 0;
      const defaultsPass = async (): Promise<number | null> => {
        const k = n++;
        if (k !== 0 && k % 4 !== 2) return null;
        const t = performance.now();
        const made = await evaluator.ensureDefaults();
        if (k === 0 && made !== SERVERS) throw new Error(`expected default rules for ${SERVERS} servers, got ${made}`);
        return performance.now() - t;
      };
      // 20 simulated minutes before measuring: grace periods of every length have run out.
      await defaultsPass();
      await evaluator.tick();
      const routing = ROUTING ? await seedRouting(database, new Date(T0)) : null;
      // The router's share of each tick (its sweep runs inside the tick), measured apart.
      const sweeps: { ms: number; cpu: number; looked: number; scanned: number; full: boolean }[] = [];
      const sweep = evaluator.router.sweep.bind(evaluator.router);
      evaluator.router.sweep = async (...args: Parameters<typeof sweep>) => {
        const t = performance.now();
        const c = process.cpuUsage();
        const r = await sweep(...args);
        const used = process.cpuUsage(c);
        sweeps.push({ ms: performance.now() - t, cpu: (used.user + used.system) / 1000, looked: r.looked, scanned: r.scanned, full: r.full });
        return r;
      };
      for (let i = 1; i <= 100; i++) {
        clock = T0 + i * 15_000;
        await churn(i);
        await scrape();
        await defaultsPass();
        await evaluator.tick();
        if (i % 4 === 1) await evaluator.vacuum();
      }
      const countState = () =>
        database.query<{ firing: number; pending: number; resolved: number; muted: Record<string, number> | null; queued: number }>(
          `select (select count(*) from alerts where status = 'firing')::int as firing, (select count(*) from alert_pending)::int as pending,
                  (select count(*) from alerts where status = 'resolved')::int as resolved,
                  (select jsonb_object_agg(mute, n) from (select mute, count(*)::int as n from alerts where status <> 'resolved' and mute is not null group by mute) m) as muted,
                  (select count(*) from alert_outbox)::int as queued`,
        );
      const state = await countState();
      const times: number[] = [];
      const passes: number[] = [];
      // CPU time per tick: this process (on PGlite the database runs in it) and PostgreSQL's
      // backends, the tick's whole cost, which other work on the machine inflates far less than
      // wall time.
      const cpu: number[] = [];
      const meter = await cpuMeter(database);
      const vacuums: number[] = [];
      let fired = 0;
      let resolved = 0;
      let started = 0;
      sweeps.length = 0;
      for (let i = 0; i < TICKS + WARMUP; i++) {
        if (i === WARMUP) sweeps.length = 0;
        clock += 15_000;
        await churn(101 + i);
        await scrape();
        const pass = await defaultsPass();
        if (pass !== null && i >= WARMUP) passes.push(pass);
        const stop = await meter.start();
        const t = performance.now();
        const r = await evaluator.tick();
        const ms = performance.now() - t;
        cpu.push(await stop());
        if (!r) throw new Error('the evaluator did not run');
        // What the evaluator's loop does every fourth tick on PGlite (a no-op on PostgreSQL).
        if (i % 4 === 1) {
          const v = performance.now();
          await evaluator.vacuum();
          if (i >= WARMUP) vacuums.push(performance.now() - v);
        }
        if (i < WARMUP) {
          cpu.pop();
          continue;
        }
        fired += r.fired.length;
        resolved += r.resolved.length;
        started += r.pendingStarted;
        times.push(ms);
      }
      const all = times.sort((x, y) => x - y);
      cpu.sort((x, y) => x - y);
      passes.sort((x, y) => x - y);
      results.push({
        backend: backend.name,
        routing,
        before: state[0],
        after: (await countState())[0],
        ticks: all.length,
        p50: r1(pct(all, 50)),
        p95: r1(pct(all, 95)),
        max: r1(all[all.length - 1]!),
        cpu: { p50: r1(pct(cpu, 50)), p95: r1(pct(cpu, 95)), max: r1(cpu[cpu.length - 1]!) },
        vacuumMs: vacuums.length ? r1(vacuums.reduce((x, y) => x + y, 0) / vacuums.length) : null,
        defaultsPass: passes.length ? { n: passes.length, mean: r1(passes.reduce((x, y) => x + y, 0) / passes.length), max: r1(passes.at(-1)!) } : null,
        duringMeasurement: { fired, resolved, pendingStarted: started },
        router: (() => {
          const all = sweeps.map((x) => x.ms).sort((x, y) => x - y);
          const checked = sweeps.filter((x) => x.scanned > 0);
          const checks = checked.map((x) => x.ms).sort((x, y) => x - y);
          // CPU of this process during the sweep: the whole cost on PGlite, the client's on PostgreSQL.
          const cpu = sweeps.map((x) => x.cpu).sort((x, y) => x - y);
          const checksCpu = checked.map((x) => x.cpu).sort((x, y) => x - y);
          const scanned = checked.map((x) => x.scanned).sort((x, y) => x - y);
          return all.length
            ? {
                p50: r1(pct(all, 50)),
                p95: r1(pct(all, 95)),
                max: r1(all.at(-1)!),
                cpuP50: r1(pct(cpu, 50)),
                cpuP95: r1(pct(cpu, 95)),
                recheckSweeps: checks.length,
                recheckMedian: checks.length ? r1(pct(checks, 50)) : null,
                recheckCpuMedian: checksCpu.length ? r1(pct(checksCpu, 50)) : null,
                recheckedMedian: scanned.length ? pct(scanned, 50) : 0,
                recheckedMax: scanned.length ? scanned.at(-1)! : 0,
                fullReads: sweeps.filter((x) => x.full).length,
                lookedMax: Math.max(...sweeps.map((x) => x.looked)),
              }
            : null;
        })(),
      });
    } finally {
      await drop();
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await runAlertTickBench();
  console.log(
    `Alert evaluation tick, ${SERVERS} servers × 6 rules, ${TICKS} warm ticks (target < 50 ms)${ROUTING ? ', with issue 14 routing (200 silences, 50 maintenance windows, escalation, repeat, flap, min interval)' : ', no routing load'}; ${machineLoad()}`,
  );
  for (const r of results) {
    console.log(
      `  ${r.backend}: p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms; CPU (this process${r.backend === 'postgres' ? ' + database backends' : ''}) p50 ${(r.cpu as any).p50} ms, p95 ${(r.cpu as any).p95} ms, max ${(r.cpu as any).max} ms`,
    );
    console.log(`    default-rules pass between ticks, before every fourth (not in the figures above), wall ms: ${JSON.stringify(r.defaultsPass)}`);
    if (r.backend === 'pglite') console.log(`    VACUUM (analyze) of servers, services, alert_pending and alert_counts every fourth tick (not in the figures above): mean ${r.vacuumMs} ms`);
    if (r.router) console.log(`    router sweep inside the tick: ${JSON.stringify(r.router)} (ms; cpuP50/95: CPU of this process in the sweep, all of it on PGlite; recheckSweeps: ticks where a silence or window started, ended or changed and the open alerts it concerns were re-matched, recheckedMedian/Max of them per tick; fullReads: ticks that read every open alert; looked: alerts given the full look)`);
    console.log(`    state before measuring: ${JSON.stringify(r.before)}; after: ${JSON.stringify(r.after)}; during: ${JSON.stringify(r.duringMeasurement)}`);
  }
}
