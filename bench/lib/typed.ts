/**
 * What people do to a list's filter box (issue 17 §4): type a value one character at a time, so
 * the list is asked for its first 1, 2, 3 and 4 characters — common prefixes that match most
 * rows, not only rare needles. Measured one client at a time and then with 8 clients typing at
 * once (Fastify inject: routing, session, validation, SQL, serialisation), each request's wall
 * time beside the CPU it cost (bench/lib/cpu.ts): on a machine other work shares, wall time grows
 * with the load average and CPU time hardly does.
 */
import type { FastifyInstance } from 'fastify';
import type { CpuMeter } from './cpu';

export interface TypedResult {
  label: string;
  p50: number;
  p95: number;
  max: number;
  /** CPU milliseconds per request (this process, plus PostgreSQL's backends): p50 and p95 one client at a time; the mean with 8 clients. */
  cpuP50: number;
  cpuP95: number;
  requests: number;
  /** The counts answered per needle (with "~" when the list said it estimated). */
  counts: string;
  /** 8 clients: the CPU a request by where it ran (bench/lib/cpu.ts CpuSplit). */
  split?: string;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const r1 = (n: number) => Math.round(n * 10) / 10;

export async function typedLoad(
  app: FastifyInstance,
  cookie: string,
  url: string,
  words: string[],
  body: (needle: string) => Record<string, unknown>,
  rounds: number,
  meter: CpuMeter,
  clients = 8,
): Promise<TypedResult[]> {
  const counts = new Map<string, string>();
  const ask = async (needle: string) => {
    const started = performance.now();
    const res = await app.inject({ method: 'POST', url, headers: { cookie, 'x-requested-with': 'opsdeck' }, payload: body(needle) });
    const ms = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${url} ${needle}: ${res.statusCode} ${res.body}`);
    const r = (JSON.parse(res.body) as { result: { count: number; countEstimated?: boolean } }).result;
    counts.set(needle, `${r.countEstimated ? '~' : ''}${r.count}`);
    return ms;
  };
  const byLength = (len: number) => words.map((w) => w.slice(0, len));
  // Warm-up: the JIT, the caches, every needle once (TYPED_WARMUP rounds: a long-running
  // server's JIT, including V8's tier-up of PGlite's WebAssembly, has long settled).
  for (let round = 0; round < Math.max(1, Number(process.env.TYPED_WARMUP) || 1); round++) for (let len = 1; len <= 4; len++) for (const n of byLength(len)) await ask(n);
  const results: TypedResult[] = [];
  const summarise = (label: string, times: number[], cpus: number[], needles: string[]) => {
    times.sort((a, b) => a - b);
    cpus.sort((a, b) => a - b);
    results.push({
      label,
      p50: r1(pct(times, 50)),
      p95: r1(pct(times, 95)),
      max: r1(times[times.length - 1]!),
      cpuP50: r1(pct(cpus, 50)),
      cpuP95: r1(pct(cpus, 95)),
      requests: times.length,
      counts: needles.map((n) => `${n}:${counts.get(n)}`).join(' '),
    });
  };
  for (let len = 1; len <= 4; len++) {
    const needles = byLength(len);
    const times: number[] = [];
    const cpus: number[] = [];
    for (let i = 0; i < rounds; i++)
      for (const n of needles) {
        const stop = await meter.start();
        times.push(await ask(n));
        cpus.push(await stop());
      }
    summarise(`${len} char${len > 1 ? 's' : ''}, 1 client`, times, cpus, needles);
  }
  // 8 clients at once, each typing its own word from 1 to 4 characters, over and over, with no
  // pause: 8 requests always in flight. CPU per request is the phase's CPU over its requests.
  const all: number[] = [];
  const stop = await meter.start();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const word = words[c % words.length]!;
      for (let i = 0; i < rounds; i++) for (let len = 1; len <= 4; len++) all.push(await ask(word.slice(0, len)));
    }),
  );
  const perRequest = (await stop()) / all.length;
  summarise(`1-4 chars, ${clients} clients`, all, [perRequest], []);
  const split = meter.lastSplit;
  if (split) results[results.length - 1]!.split = `main thread ${r1(split.mainThread / all.length)}, other threads ${r1(split.otherThreads / all.length)}, PostgreSQL ${r1(split.backends / all.length)} ms a request`;
  return results;
}
