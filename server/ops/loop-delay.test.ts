import { describe, expect, it } from 'vitest';
import { metricsRegistry } from './metrics';

const gauge = async (name: string) => Number((await metricsRegistry.getSingleMetricAsString(name)).split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('event-loop delay gauges (sampled every 100 ms, not prom-client 10 ms timer)', () => {
  it('show a blocked loop as delay beyond the sampling interval, and read near zero when idle', async () => {
    await sleep(350);
    await metricsRegistry.metrics(); // a collection resets the window
    await sleep(350);
    const idle = await metricsRegistry.metrics();
    const p99Idle = Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(idle)?.[1]);
    expect(p99Idle).toBeGreaterThanOrEqual(0);
    expect(p99Idle).toBeLessThan(0.05);
    await sleep(20);
    const end = Date.now() + 250;
    while (Date.now() < end);
    await sleep(250);
    const blocked = await metricsRegistry.metrics();
    expect(Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(blocked)?.[1])).toBeGreaterThan(0.12);
    expect(Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(blocked)?.[1])).toBeGreaterThan(0.12);
    expect(await gauge('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
