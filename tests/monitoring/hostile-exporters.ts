/**
 * Exporter stand-ins that try to exhaust the console (issue 25 finding 8), on loopback: a real
 * node_exporter scrape plus, for the high-cardinality one, ~234,000 network series (117,000
 * devices, receive and transmit: every one of them a chart line of panel 84), and for the
 * long-label one a systemd unit whose name is 1 MB long. Counters move between scrapes, so rates
 * (and so chart series) exist from the second scrape on. The server runs in a worker thread
 * (hostile-exporter-thread.mjs), so building its bodies never holds up the console under test.
 */
import { Worker } from 'node:worker_threads';

export const HIGH_CARDINALITY_DEVICES = 117_000;

export type Body = { type: 'cardinality'; devices: number } | { type: 'label'; bytes: number };

export interface StandIn {
  port: number;
  scrapes: () => number;
  /** Serve another body from the next scrape on (an exporter fixed, or broken). */
  serve: (body: Body) => Promise<void>;
  close: () => Promise<void>;
}

export async function serveExporter(body: Body): Promise<StandIn> {
  const worker = new Worker(new URL('./hostile-exporter-thread.mjs', import.meta.url), { workerData: body });
  let scrapes = 0;
  let kindSet: (() => void) | null = null;
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: { type: string; port?: number; n?: number }) => {
      if (m.type === 'listening') resolve(m.port!);
      else if (m.type === 'scrapes') scrapes = m.n!;
      else if (m.type === 'kind-set') kindSet?.();
    });
  });
  return {
    port,
    scrapes: () => scrapes,
    serve: (next) =>
      new Promise<void>((resolve) => {
        kindSet = resolve;
        worker.postMessage({ type: 'kind', kind: next });
      }),
    close: async () => {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' });
      await exited;
    },
  };
}
