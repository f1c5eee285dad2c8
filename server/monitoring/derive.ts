/**
 * One scrape → a server's usage figures, chart series and service states (docs/metrics.md).
 * Pure: the caller keeps the returned CounterMemory and hands it back with the next scrape of
 * the same server so counters become per-second rates. `asked` names every family the
 * derivation looked for (present or not), for parsing only those next time.
 */
import { DeriveContext } from './derive-context';
import { deriveLinux } from './linux';
import type { CounterMemory, Derived, Os, Scrape } from './types';
import { deriveWindows } from './windows';

export function deriveScrape(
  os: Os,
  scrape: Scrape,
  atMs: number,
  prev?: CounterMemory,
): { derived: Derived; memory: CounterMemory; asked: ReadonlySet<string> } {
  const ctx = new DeriveContext(scrape, atMs, prev);
  const { usage, services, servicesExposed } = os === 'windows' ? deriveWindows(ctx) : deriveLinux(ctx);
  return { derived: { usage, series: ctx.series, services, servicesExposed }, memory: ctx.memory(), asked: ctx.asked };
}
