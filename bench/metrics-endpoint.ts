/**
 * What Opsdeck's own /metrics costs (issue 12 §3): the CPU of one scrape of GET /metrics with a
 * realistic set of series, and what timing every HTTP request adds (the onResponse hook that
 * feeds opsdeck_http_request_duration_seconds), measured as CPU per request with /metrics on and
 * off, run back to back in the same process.
 *
 * The app is the real one (buildApp on PGlite, no UI); requests go through app.inject, so the
 * figures are the app's own work without sockets. Before measuring, requests on 40 routes with a
 * few status codes fill the histogram as a busy console would (40 routes × statuses × 15 buckets).
 *
 * `npx tsx bench/metrics-endpoint.ts [--scrapes 300] [--requests 5000]`
 */
import { buildApp } from '../server/app';
import { hashPassword } from '../server/auth/password';
import { testConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { users } from '../server/db/schema';
import { machineLoad, numberOption } from './lib/options';

const scrapes = numberOption('--scrapes', 300);
const requests = numberOption('--requests', 5000);

const cpuMs = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  const database = await openDatabase({});
  await database.db.insert(users).values({ username: 'bench', email: 'bench@example.com', phonenumber: '', passwordHash: await hashPassword('bench-pass'), role: 'admin', status: 'active' });
  const results: Record<string, number> = {};
  for (const enabled of [true, false]) {
    const app = await buildApp(testConfig({ metrics: { enabled } }), { database });
    await app.ready();
    const signin = await app.inject({ method: 'POST', url: '/api/auth/signin', headers: { 'x-requested-with': 'opsdeck', 'content-type': 'application/json' }, payload: JSON.stringify({ email: 'bench@example.com', password: 'bench-pass' }) });
    const cookie = `opsdeck_session=${signin.cookies.find((c) => c.name === 'opsdeck_session')!.value}`;

    if (enabled) {
      // Fill the request histogram: every GET route of the app once, a few 404s and 401s.
      const routes = new Set<string>();
      for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
        const m = /(\/[^\s(]*) \(([A-Z, ]+)\)/.exec(line.replace(/^[\s│├└─]+/, ''));
        if (m && m[2]!.includes('GET')) routes.add(m[1]!);
      }
      for (const route of [...routes].slice(0, 40)) {
        const url = route.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
        for (const withCookie of [true, false]) await app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });
      }
      const sample = await app.inject({ method: 'GET', url: '/metrics' });
      const body = sample.body;
      results['series'] = body.split('\n').filter((l) => l && !l.startsWith('#')).length;
      results['bytes'] = body.length;

      // The scrape itself.
      for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: '/metrics' });
      const walls: number[] = [];
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < scrapes; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: '/metrics' });
        walls.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
      }
      results['scrapeCpuMs'] = cpuMs(cpu0) / scrapes;
      walls.sort((a, b) => a - b);
      results['scrapeP50Ms'] = pct(walls, 50);
      results['scrapeP95Ms'] = pct(walls, 95);
    }

    // A cheap request, where a per-request hook shows most: liveness, and an authenticated read.
    for (const [name, opts] of [
      ['health', { method: 'GET' as const, url: '/api/health' }],
      ['whoami', { method: 'GET' as const, url: '/api/auth/whoami', headers: { cookie } }],
    ] as const) {
      for (let i = 0; i < 200; i++) await app.inject(opts);
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < requests; i++) await app.inject(opts);
      results[`${name}CpuUs_${enabled ? 'on' : 'off'}`] = (cpuMs(cpu0) * 1000) / requests;
    }
    await app.close();
  }
  await database.close();

  const f = (n: number, d = 1) => n.toFixed(d);
  console.log(`/metrics cost — ${machineLoad()}`);
  console.log(`  one scrape: ${results['series']} series, ${f(results['bytes']! / 1024)} KB; CPU ${f(results['scrapeCpuMs']!, 2)} ms per scrape; wall p50 ${f(results['scrapeP50Ms']!, 2)} ms, p95 ${f(results['scrapeP95Ms']!, 2)} ms (${scrapes} scrapes)`);
  for (const name of ['health', 'whoami']) {
    const on = results[`${name}CpuUs_on`]!;
    const off = results[`${name}CpuUs_off`]!;
    console.log(`  GET ${name}: CPU ${f(on)} µs per request with /metrics on, ${f(off)} µs off (${on >= off ? '+' : ''}${f(on - off)} µs, ${requests} requests each)`);
  }
}

await main();
