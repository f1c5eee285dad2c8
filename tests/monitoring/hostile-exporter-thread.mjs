// The hostile exporter stand-ins' HTTP server, in a worker thread of its own (hostile-exporters.ts
// starts it): building a 13 MB body takes a few hundred milliseconds, which must not hold up the
// console under test, whose API runs on the main thread of the same process.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const FIXTURE = readFileSync(new URL('../../server/monitoring/fixtures/node-exporter-scrape1.prom', import.meta.url), 'utf8');
const UNITS = readFileSync(new URL('../../server/monitoring/fixtures/node-systemd-units.prom', import.meta.url), 'utf8');

/** The real scrape with `devices` more network devices (two series each); `round` moves the counters. */
export function highCardinalityBody(devices, round) {
  const parts = [FIXTURE, '# TYPE node_network_receive_bytes_total counter\n'];
  for (let i = 0; i < devices; i++) parts.push(`node_network_receive_bytes_total{device="h${i}"} ${round * 1000 + i}\n`);
  parts.push('# TYPE node_network_transmit_bytes_total counter\n');
  for (let i = 0; i < devices; i++) parts.push(`node_network_transmit_bytes_total{device="h${i}"} ${round * 2000 + i}\n`);
  return Buffer.from(parts.join(''));
}

/** The real scrape and its systemd units, one of them named with `bytes` bytes. */
export function longLabelBody(bytes) {
  return Buffer.from(`${FIXTURE}${UNITS}node_systemd_unit_state{name="${'x'.repeat(bytes)}.service",state="active",type="simple"} 1\n`);
}

if (parentPort) {
  let kind = workerData;
  let round = 0;
  // The next round's body is built ahead, between answers.
  const build = (r) => (kind.type === 'cardinality' ? highCardinalityBody(kind.devices, r) : longLabelBody(kind.bytes));
  let next = build(1);
  const server = createServer((_req, res) => {
    round++;
    const body = next;
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4', 'content-length': body.length }).end(body);
    parentPort.postMessage({ type: 'scrapes', n: round });
    setImmediate(() => (next = build(round + 1)));
  });
  parentPort.on('message', (message) => {
    if (message.type === 'kind') {
      kind = message.kind;
      next = build(round + 1);
      parentPort.postMessage({ type: 'kind-set' });
    } else if (message.type === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
  server.listen(0, '127.0.0.1', () => parentPort.postMessage({ type: 'listening', port: server.address().port }));
}
