/**
 * Parse + derive CPU per sample line on real-sized demo payloads (issue 17 §2), one thread, no
 * HTTP or database: a full parse against the learned-families parse the scrape worker does
 * (scrape-engine.ts parseAndDerive), and a parse that skips every line (the floor of the skip
 * path). Checks that both give the same derived figures. Best of `--rounds` (default 5).
 *
 * `npm run bench -- scrape-parse [--hosts 19] [--rounds 5]`
 */
import { deriveScrape } from '../server/monitoring/derive';
import { parseExpositionDetailed } from '../server/monitoring/exposition';
import { startDemoFleet } from '../server/demo/fleet';
import { machineLoad, numberOption } from './lib/options';

const HOSTS = numberOption('--hosts', 20);
const ROUNDS = numberOption('--rounds', 5);
const fleet = await startDemoFleet({ count: HOSTS, port: 0 });
const live = fleet.hosts.filter((h) => h.profile !== 'down');
const fetchAll = () => Promise.all(live.map(async (h) => (await fetch(`http://${h.ipaddress}:${h.port}/metrics`)).text()));
const before = await fetchAll();
await new Promise((resolve) => setTimeout(resolve, 1500));
const after = await fetchAll();
await fleet.stop();

const first = live.map((h, i) => deriveScrape(h.os, parseExpositionDetailed(before[i]!).scrape, 0));
const wanted = first.map((f) => f.asked);
for (const [i, h] of live.entries()) {
  const full = deriveScrape(h.os, parseExpositionDetailed(after[i]!).scrape, 1500, first[i]!.memory).derived;
  const some = deriveScrape(h.os, parseExpositionDetailed(after[i]!, wanted[i]).scrape, 1500, first[i]!.memory).derived;
  if (JSON.stringify(full) !== JSON.stringify(some)) throw new Error(`${h.hostname}: the learned-families parse derives other figures`);
}

const samples = after.reduce((n, text) => n + parseExpositionDetailed(text).samples, 0);
const kept = after.reduce((n, text, i) => n + [...parseExpositionDetailed(text, wanted[i]).scrape.values()].reduce((m, list) => m + list.length, 0), 0);
function best(run: () => void): number {
  let min = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    for (let k = 0; k < 20; k++) run();
    const c = process.cpuUsage(c0);
    min = Math.min(min, ((c.user + c.system) * 1000) / (20 * samples));
  }
  return Math.round(min);
}
const cases: [string, () => void][] = [
  ['full parse + derive', () => live.forEach((h, i) => deriveScrape(h.os, parseExpositionDetailed(after[i]!).scrape, 1500, first[i]!.memory))],
  ['learned families + derive', () => live.forEach((h, i) => deriveScrape(h.os, parseExpositionDetailed(after[i]!, wanted[i]).scrape, 1500, first[i]!.memory))],
  ['skip every line (parse only)', () => after.forEach((text) => parseExpositionDetailed(text, new Set()))],
];
console.log(`${live.length} real-sized demo hosts, ${samples} sample lines a round, ${kept} of them in the families the derivation reads; best of ${ROUNDS}; ${machineLoad()}`);
console.log('| Path | CPU per sample line |\n| --- | --- |');
for (const [name, run] of cases) console.log(`| ${name} | ${best(run)} ns |`);
