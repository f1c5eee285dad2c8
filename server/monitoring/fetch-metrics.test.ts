import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { parseExpositionDetailed } from './exposition';
import { fetchMetricsBytes } from './fetch-metrics';
import { fetchMetrics } from './scrape-collector';

// A raw exporter that answers the first request on each connection and hangs up on the
// second, like an exporter closing an idle kept-alive socket just as it is reused.
let server: Server;
let port = 0;
let connections = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let requests = 0;
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      while (buffer.includes('\r\n\r\n')) {
        buffer = buffer.slice(buffer.indexOf('\r\n\r\n') + 4);
        if (++requests > 1) {
          socket.destroy();
          return;
        }
        const body = 'up 1\n';
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

it('asks again on a fresh connection when a kept-alive socket was closed under it', async () => {
  expect(await fetchMetrics('127.0.0.1', port, 2000)).toBe('up 1\n');
  expect(await fetchMetrics('127.0.0.1', port, 2000)).toBe('up 1\n');
  expect(connections).toBe(2);
});

it('does not retry a refused connection', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const deadPort = (closed.address() as { port: number }).port;
  await new Promise((resolve) => closed.close(resolve));
  await expect(fetchMetrics('127.0.0.1', deadPort, 2000)).rejects.toThrow(`Connection refused at 127.0.0.1:${deadPort}`);
});

it('gives the bytes of a body sent in odd writes, characters cut between writes included', async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `metric_${i % 17}{i="${i}",mount="/mnt/ünï€${i}"} ${i}.5`);
  const body = Buffer.from(`${lines.join('\n')}\nlast_line_without_break 1`, 'utf8');
  const http = createHttpServer(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    // Writes that cut lines, and multi-byte characters, in the middle, with pauses so they arrive as separate chunks.
    for (let at = 0; at < body.length; at += 20_011) {
      res.write(body.subarray(at, at + 20_011));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    const bytes = await fetchMetricsBytes('127.0.0.1', (http.address() as { port: number }).port, 5000);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.equals(body)).toBe(true);
    const parsed = parseExpositionDetailed(bytes);
    expect(parsed.samples).toBe(3001);
    expect(parsed.scrape.get('metric_3')![1]).toEqual({ labels: { i: '20', mount: '/mnt/ünï€20' }, value: 20.5 });
  } finally {
    await new Promise((resolve) => http.close(resolve));
  }
});
