/**
 * Parser throughput on a million samples: `npx tsx server/monitoring/exposition.bench.ts`.
 * The input is the real node_exporter capture repeated, each copy under its own `instance`
 * label, so families are long (as in a big federation or kube-state-metrics scrape) and label
 * values vary between copies. Prints CPU nanoseconds per sample, best of several rounds.
 */
import { readFileSync } from 'node:fs';
import { parseExpositionDetailed } from './exposition';

const base = readFileSync(new URL('./fixtures/node-exporter-scrape2.prom', import.meta.url), 'utf8');
const perCopy = parseExpositionDetailed(base).samples;
const copies = Math.ceil(1_000_000 / perCopy);

function withInstance(text: string, instance: string): string {
  return text
    .split('\n')
    .map((line) => {
      if (line === '' || line.startsWith('#')) return line;
      const brace = line.indexOf('{');
      const space = line.indexOf(' ');
      if (brace !== -1 && brace < space) return `${line.slice(0, brace + 1)}instance="${instance}",${line.slice(brace + 1)}`;
      return `${line.slice(0, space)}{instance="${instance}"}${line.slice(space)}`;
    })
    .join('\n');
}

const parts: string[] = [];
for (let i = 0; i < copies; i++) parts.push(withInstance(base, `10.0.${i >> 8}.${i & 255}:9100`));
const text = parts.join('\n');
const expected = perCopy * copies;

let best = Infinity;
for (let round = 0; round < 7; round++) {
  const cpu0 = process.cpuUsage();
  const result = parseExpositionDetailed(text);
  const cpu = process.cpuUsage(cpu0);
  if (result.samples !== expected || result.malformed !== 0) {
    throw new Error(`parsed ${result.samples} samples, ${result.malformed} malformed; expected ${expected}`);
  }
  best = Math.min(best, ((cpu.user + cpu.system) * 1000) / result.samples);
}
console.log(
  `${expected} samples, ${(text.length / 1e6).toFixed(1)} MB: best ${best.toFixed(0)} ns CPU/sample ` +
    `(${((best * 1e6) / 1e9).toFixed(3)} s CPU per million samples)`,
);
