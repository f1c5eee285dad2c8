import { describe, expect, it } from 'vitest';
import { deriveScrape } from '../monitoring/derive';
import { parseExpositionDetailed } from '../monitoring/exposition';
import { REAL_SAMPLES } from './ballast';
import { defaultFleetSpecs } from './fleet';
import { createSimulatedHost } from './simulator';

const START = Date.UTC(2026, 10, 23, 8, 0, 0);
// Twelve hand-picked hosts plus some of the repeated roles of a larger fleet (other core counts).
const specs = defaultFleetSpecs(40).filter((s, i) => i < 12 || i % 7 === 0);

/**
 * Issue 17 §1: real-sized payloads, and nothing the console derives changes with them. (That
 * Prometheus parses them: fleet.test.ts runs promtool on the fleet, which serves them by default.)
 */
describe('real-sized demo payloads', () => {
  it('pad every host to REAL_SAMPLES samples, with moving values, and the console derives the same as from the light payload', () => {
    for (const spec of specs) {
      const light = createSimulatedHost(spec, START, 0);
      const real = createSimulatedHost(spec, START, REAL_SAMPLES[spec.os]);
      let memory: Parameters<typeof deriveScrape>[3];
      let lightMemory: Parameters<typeof deriveScrape>[3];
      const first = parseExpositionDetailed(real.render(START + 60_000));
      expect(first.samples, spec.hostname).toBe(REAL_SAMPLES[spec.os]);
      expect(parseExpositionDetailed(light.render(START + 60_000)).samples, spec.hostname).toBeLessThan(REAL_SAMPLES[spec.os] / 2);
      for (const at of [START + 60_000, START + 75_000, START + 90_000]) {
        const a = deriveScrape(spec.os, parseExpositionDetailed(light.render(at)).scrape, at, lightMemory);
        const b = deriveScrape(spec.os, parseExpositionDetailed(real.render(at)).scrape, at, memory);
        lightMemory = a.memory;
        memory = b.memory;
        expect(b.derived, `${spec.hostname} at ${at}`).toEqual(a.derived);
      }
      // The padding moves like counters do: a later scrape differs in more than the console's own
      // rows (on Windows most padding is services' status and info rows, constant as on real hosts).
      const before = real.render(START + 60_000).split('\n');
      const after = real.render(START + 3_600_000).split('\n');
      const changed = before.filter((l, i) => l !== after[i]).length;
      const lightBefore = light.render(START + 60_000).split('\n');
      const lightAfter = light.render(START + 3_600_000).split('\n');
      const lightChanged = lightBefore.filter((l, i) => l !== lightAfter[i]).length;
      expect(changed - lightChanged, spec.hostname).toBeGreaterThanOrEqual(spec.os === 'linux' ? 800 : 4 * spec.cores);
    }
  });
});
