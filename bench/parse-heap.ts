/**
 * The scrape worker's heap when it parses a round of real-sized bodies (issue 17 §2): one thread
 * decodes 950 real-sized demo bodies a round (100 distinct hosts' renders, 64 KB socket-read
 * chunks as http gives them) and parses and derives each with its own counter memory, for 8
 * rounds; prints the largest V8 heap total and RSS seen, and the CPU time. `whole` joins the
 * chunks into one string first (as the worker once did), `bytes` joins them into one Buffer and
 * parses its bytes (fetchMetricsBytes, as the worker does: docs/decisions.md "Scrape cost at 50
 * real-sized hosts"). Heap sizes move with when collections land: run each a few times.
 *
 * `npx tsx bench/parse-heap.ts whole|bytes`
 */
import { REAL_SAMPLES } from '../server/demo/ballast';
import { defaultFleetSpecs } from '../server/demo/fleet-specs';
import { createSimulatedHost } from '../server/demo/simulator';
import { parseAndDerive } from '../server/monitoring/scrape-engine';

const mode = process.argv[2];
if (mode !== 'whole' && mode !== 'bytes') {
  console.error('usage: npx tsx bench/parse-heap.ts whole|bytes');
  process.exit(2);
}
const CHUNK = 65_536;
const TARGETS = 950;
const t0 = Date.now() - 3_600_000;
const specs = defaultFleetSpecs(100).filter((s) => s.profile !== 'down');
const bodies = specs.map((s) => {
  const host = createSimulatedHost(s, t0 - 3_600_000, REAL_SAMPLES[s.os]);
  return [Buffer.from(host.render(t0)), Buffer.from(host.render(t0 + 15_000))] as const;
});

function decode(buf: Buffer): string | Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; at < buf.length; at += CHUNK) chunks.push(Buffer.from(buf.subarray(at, at + CHUNK)));
  if (mode === 'bytes') return Buffer.concat(chunks);
  let body = '';
  for (const chunk of chunks) body += chunk.toString('utf8');
  return body;
}

const states = Array.from({ length: TARGETS }, () => ({}));
let maxHeap = 0;
let maxRss = 0;
const cpu0 = process.cpuUsage();
for (let round = 0; round < 8; round++) {
  for (let i = 0; i < TARGETS; i++) {
    const body = bodies[i % bodies.length]![round % 2]!;
    parseAndDerive(specs[i % specs.length]!.os, decode(body), t0 + round * 15_000, states[i]!);
    if (i % 50 === 0) {
      const m = process.memoryUsage();
      maxHeap = Math.max(maxHeap, m.heapTotal);
      maxRss = Math.max(maxRss, m.rss);
    }
  }
}
const cpu = process.cpuUsage(cpu0);
const MB = 2 ** 20;
console.log(`${mode}: max heap total ${Math.round(maxHeap / MB)} MB, max RSS ${Math.round(maxRss / MB)} MB, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s for 8 rounds of ${TARGETS}`);
