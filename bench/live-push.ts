/**
 * The live stream (issue 24 §1): how long a change takes from the database to the tabs, and what
 * the open streams cost the console at idle.
 *
 *  - Latency: the console as `npm start` runs it (PGlite, SCRAPE_INTERVAL 15) scraping `--hosts`
 *    demo hosts (default 1,000), with `--streams` tabs (default 20) reading GET /api/live. Every
 *    `--every` ms (default 500) a History record is written (a person's run: the admin's own
 *    account saved through the API, which the server records); its trigger writes the live event, whose `at` is the database's
 *    clock at the insert. Latency = when each stream read the event − that `at` (one machine, one
 *    clock), over `--events` events (default 60) × streams. Target p95 ≤ 500 ms.
 *  - Idle cost: the console with no fleet, its CPU over `--seconds` (default 60) with no stream
 *    open, then with the streams open (heartbeats and their session checks every 15 s). Target:
 *    the difference ≤ 2 % of a core.
 *
 * `npm run bench -- live-push [--hosts 1000] [--streams 20] [--events 60] [--seconds 60] [--warmup 45]`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser } from 'eventsource-parser';
import { openDatabase } from '../server/db/client';
import { registerDemoFleet } from '../server/demo/register';
import { machineLoad, numberOption } from './lib/options';
import { processCpuSeconds, sleep, spawnConsole, spawnFleet, type Console } from './lib/processes';

const HOSTS = numberOption('--hosts', 1000);
const STREAMS = numberOption('--streams', 20);
const EVENTS = numberOption('--events', 60);
const EVERY_MS = numberOption('--every', 500);
const SECONDS = numberOption('--seconds', 60);
const WARMUP_S = numberOption('--warmup', 45);
const ADMIN = { email: 'bench-admin@opsdeck.test', password: 'bench-admin-password' };
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function signIn(url: string): Promise<{ cookie: string; id: string; username: string }> {
  const res = await fetch(`${url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'opsdeck' }, body: JSON.stringify(ADMIN) });
  if (!res.ok) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { result: { _id: string; username: string } };
  return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, id: body.result._id, username: body.result.username };
}

/** `n` open streams; `onHistory(id, receivedMs, atMs)` for each history event each reads (`id`: the record's). */
async function openStreams(url: string, cookie: string, n: number, onHistory: (id: string, receivedMs: number, atMs: number) => void) {
  const aborts: AbortController[] = [];
  for (let i = 0; i < n; i++) {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(`${url}/api/live`, { headers: { cookie, accept: 'text/event-stream' }, signal: abort.signal });
    if (res.status !== 200 || !res.body) throw new Error(`stream ${i}: ${res.status}`);
    const parser = createParser({
      onEvent: (e) => {
        if (e.event !== 'history') return;
        const received = Date.now();
        const data = JSON.parse(e.data) as { id: string; at: string };
        onHistory(data.id, received, Date.parse(data.at));
      },
    });
    void (async () => {
      try {
        for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) parser.feed(chunk);
      } catch {
        // aborted
      }
    })();
  }
  return () => aborts.forEach((a) => a.abort());
}

async function latency(): Promise<void> {
  const fleet = HOSTS > 0 ? await spawnFleet(HOSTS, 'light') : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-live-'));
  let server: Console | undefined;
  try {
    if (fleet) {
      const setup = await openDatabase({ dataDir });
      await registerDemoFleet(setup, fleet.hosts);
      await setup.close();
    }
    server = await spawnConsole(dataDir, { SCRAPE_INTERVAL: '15', LIVE_HEARTBEAT_SECONDS: '15' });
    const { cookie, id: adminId, username } = await signIn(server.url);
    console.log(`warming up ${WARMUP_S} s with ${HOSTS} hosts scraped…`);
    await sleep(WARMUP_S * 1000);
    // Every history event each stream read, by record id: a stream may read one before its
    // write's answer names the record.
    const read = new Map<string, number[]>();
    const mine: string[] = [];
    const stop = await openStreams(server.url, cookie, STREAMS, (id, received, at) => {
      read.set(id, [...(read.get(id) ?? []), received - at]);
    });
    await sleep(1000);
    const cpu0 = processCpuSeconds(server.pid);
    const t0 = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const res = await fetch(`${server.url}/api/auth/users/${adminId}`, {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'opsdeck', 'x-opsdeck-command': 'account.edit', 'x-opsdeck-source': 'ui' },
        // The name it has: a write the server records, changing nothing a person would see.
        body: JSON.stringify({ username }),
      });
      const record = res.headers.get('x-opsdeck-record');
      if (res.status !== 200 || !record) throw new Error(`history record: ${res.status} ${await res.text()}`);
      mine.push(record);
      await sleep(EVERY_MS * (0.5 + Math.random()));
    }
    await sleep(2000);
    const wall = (performance.now() - t0) / 1000;
    const cpu = processCpuSeconds(server.pid) - cpu0;
    stop();
    const latencies = mine.flatMap((id) => read.get(id) ?? []);
    const missing = mine.reduce((n, id) => n + (STREAMS - (read.get(id)?.length ?? 0)), 0);
    const sorted = latencies.sort((a, b) => a - b);
    console.log(
      `database → stream, ${HOSTS} hosts scraped, ${STREAMS} streams, ${EVENTS} events: p50 ${pct(sorted, 50)} ms, p95 ${pct(sorted, 95)} ms, p99 ${pct(sorted, 99)} ms, max ${sorted.at(-1)} ms; ${latencies.length} deliveries, ${missing} missing; console CPU ${((cpu / wall) * 100).toFixed(1)} % of a core meanwhile; ${machineLoad()}`,
    );
    if (missing) process.exitCode = 1;
  } finally {
    await server?.stop();
    await fleet?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function idleCost(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'opsdeck-bench-live-idle-'));
  const server = await spawnConsole(dataDir, { SCRAPE_INTERVAL: '15' });
  try {
    const { cookie } = await signIn(server.url);
    await sleep(20_000);
    const measure = async () => {
      const c0 = processCpuSeconds(server.pid);
      const t0 = performance.now();
      await sleep(SECONDS * 1000);
      return ((processCpuSeconds(server.pid) - c0) / ((performance.now() - t0) / 1000)) * 100;
    };
    const without = await measure();
    const stop = await openStreams(server.url, cookie, STREAMS, () => {});
    await sleep(2000);
    const withStreams = await measure();
    stop();
    console.log(
      `idle console, ${SECONDS} s each: ${without.toFixed(2)} % of a core without streams, ${withStreams.toFixed(2)} % with ${STREAMS} open: the push costs ${(withStreams - without).toFixed(2)} % of a core; ${machineLoad()}`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await latency();
await idleCost();
