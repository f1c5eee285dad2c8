/**
 * Exporter stand-ins that try to exhaust the console (issue 25 finding 8), on loopback: a real
 * node_exporter scrape plus, for the high-cardinality one, ~234,000 network series (117,000
 * devices, receive and transmit: every one of them a chart line of panel 84), and for the
 * long-label one a systemd unit whose name is 1 MB long. Counters move between scrapes, so rates
 * (and so chart series) exist from the second scrape on.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const FIXTURE = readFileSync(new URL('../../server/monitoring/fixtures/node-exporter-scrape1.prom', import.meta.url), 'utf8');
const UNITS = readFileSync(new URL('../../server/monitoring/fixtures/node-systemd-units.prom', import.meta.url), 'utf8');

export const HIGH_CARDINALITY_DEVICES = 117_000;

/** The real scrape with `devices` more network devices (two series each); `round` moves the counters. */
export function highCardinalityBody(devices: number, round: number): Buffer {
  const parts: string[] = [FIXTURE, '# TYPE node_network_receive_bytes_total counter\n'];
  for (let i = 0; i < devices; i++) parts.push(`node_network_receive_bytes_total{device="h${i}"} ${round * 1000 + i}\n`);
  parts.push('# TYPE node_network_transmit_bytes_total counter\n');
  for (let i = 0; i < devices; i++) parts.push(`node_network_transmit_bytes_total{device="h${i}"} ${round * 2000 + i}\n`);
  return Buffer.from(parts.join(''));
}

/** The real scrape and its systemd units, one of them named with `bytes` bytes. */
export function longLabelBody(bytes: number): Buffer {
  const name = `${'x'.repeat(bytes)}.service`;
  return Buffer.from(`${FIXTURE}${UNITS}node_systemd_unit_state{name="${name}",state="active",type="simple"} 1\n`);
}

export interface StandIn {
  port: number;
  scrapes: () => number;
  close: () => Promise<void>;
}

/** Serves `body(round)` on 127.0.0.1 at a free port; each answer is a new round. Bodies are kept per round (two at a time). */
export async function serveExporter(body: (round: number) => Buffer): Promise<StandIn> {
  let round = 0;
  const cache = new Map<number, Buffer>();
  const server: Server = createServer((_req, res) => {
    round++;
    let b = cache.get(round);
    if (!b) {
      b = body(round);
      cache.clear();
      cache.set(round, b);
    }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': b.length }).end(b);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    scrapes: () => round,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
