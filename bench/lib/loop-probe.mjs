// Preloaded into a process under test (`node --import …/loop-probe.mjs`): its main thread's
// event-loop delay (perf_hooks.monitorEventLoopDelay, 1 ms resolution) written as JSON to
// LOOP_PROBE_FILE every second; SIGUSR2 starts a new window. Nothing is added to the product.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.LOOP_PROBE_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const write = () =>
    writeFileSync(
      file,
      JSON.stringify({ at: Date.now(), count: histogram.count, p50: ms(histogram.percentile(50)), p90: ms(histogram.percentile(90)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) }),
    );
  process.on('SIGUSR2', () => {
    histogram.reset();
    write();
  });
  setInterval(write, 1000).unref();
}
