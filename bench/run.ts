/**
 * `npm run bench`: every benchmark, one after another (two cores: never in parallel).
 * Prints the figures; docs/benchmarks.md records them with this command.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const benches = ['bench/bundle-size.ts', 'bench/users-list.ts', 'bench/lists.ts', 'bench/palette.ts', 'bench/palette-entities.ts', 'bench/triage-keys.ts', 'bench/scrape-cost.ts', 'bench/scrape-vs-prometheus.ts', 'bench/scrape-load.ts', 'bench/scrape-parse.ts', 'bench/fleet-200.ts', 'bench/chart-query.ts', 'bench/alert-tick.ts', 'bench/alerts-list.ts', 'bench/alert-latency.ts', 'bench/dashboard.ts', 'bench/incident-report.ts', 'bench/live-push.ts', 'bench/metrics-endpoint.ts', 'bench/ha-failover.ts', 'bench/checks-cost.ts', 'bench/checks-list.ts', 'bench/hostile-exporter.ts', 'bench/forecasts.ts', 'bench/oncall-who.ts', 'bench/load.ts'].filter((f) => existsSync(f));
// `--name value` options go to the benchmarks (e.g. `-- alert-latency --runs 5`); other words pick them.
const args = process.argv.slice(2);
const flags = args.flatMap((a, i) => (a.startsWith('--') ? [a, ...(args[i + 1] !== undefined && !args[i + 1]!.startsWith('--') ? [args[i + 1]!] : [])] : []));
const only = args.filter((a) => !flags.includes(a));
let failed = 0;
// Build first (`npm run build`) so the bundle and palette figures are for the current code.
spawnSync('npx', ['tsx', 'scripts/build.ts'], { stdio: 'inherit' });
for (const file of benches) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  console.log(`\n== ${file}`);
  const res = spawnSync('npx', ['tsx', file, ...flags], { stdio: 'inherit' });
  if (res.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
