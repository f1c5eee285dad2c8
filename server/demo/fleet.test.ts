import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIND_WAIT_MS, defaultFleetSpecs, demoAddress, METRICS_CONTENT_TYPE, startDemoFleet, type DemoFleet, type DemoHost } from './fleet';
import { cpuBusyPercent, downServices, parse, promtool } from './testing';
import { freeDemoPort } from './testing';

/** A clock the tests move by hand: simulated minutes pass without sleeping. */
let clock = Date.UTC(2026, 10, 23, 8, 0, 0);
const now = () => clock;
const url = (h: DemoHost, path = '/metrics') => `http://${h.ipaddress}:${h.port}${path}`;

async function refused(h: DemoHost): Promise<string> {
  try {
    await fetch(url(h));
    return 'answered';
  } catch (err) {
    return String((err as { cause?: { code?: string } }).cause?.code);
  }
}

/**
 * Lint findings that real exporters produce too: node_exporter's /proc field names are
 * camelCase (node_memory_MemTotal_bytes), and windows_process_thread_count, the name the
 * Windows dashboard reads, ends in _count.
 */
const EXPECTED_LINT = [/should be written in 'snake_case' not 'camelCase'/, /^windows_process_thread_count non-histogram and non-summary metrics should not have "_count" suffix$/];

describe('demo fleet over HTTP', () => {
  let fleet: DemoFleet;

  beforeAll(async () => {
    // Port 0: every host gets a free port on its own address, so the test neither clashes
    // with a real exporter on 9100 nor with a console running `npm start` on this machine.
    fleet = await startDemoFleet({ count: 12, port: 0, now });
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  it('gives every host its own loopback address, in order', () => {
    expect(fleet.hosts).toHaveLength(12);
    fleet.hosts.forEach((h, i) => {
      // A machine without 127.0.0.0/8 on loopback (macOS) falls back to 127.0.0.1.
      if (h.ipaddress !== '127.0.0.1') expect(h.ipaddress).toBe(demoAddress(i));
      expect(h.port).toBeGreaterThan(0);
    });
    expect(new Set(fleet.hosts.map((h) => `${h.ipaddress}:${h.port}`)).size).toBe(12);
    expect(demoAddress(253)).toBe('127.0.10.254');
    expect(demoAddress(254)).toBe('127.0.11.1');
  });

  it('serves /metrics that Prometheus parses (promtool check metrics) from every live host', async () => {
    const live = fleet.hosts.filter((h) => h.profile !== 'down');
    expect(live).toHaveLength(11);
    for (const h of live) {
      const res = await fetch(url(h));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(METRICS_CONTENT_TYPE);
      const text = await res.text();
      const check = promtool(text);
      expect(check.errors, `${h.hostname}: promtool parse errors`).toEqual([]);
      const unexpected = check.lint.filter((l) => !EXPECTED_LINT.some((re) => re.test(l)));
      expect(unexpected, `${h.hostname}: unexpected lint findings`).toEqual([]);
      expect(text).toContain(h.os === 'linux' ? 'node_cpu_seconds_total{cpu="0",mode="idle"}' : 'windows_cpu_time_total{core="0,0",mode="idle"}');
    }
  });

  it('refuses connections for the down host', async () => {
    const down = fleet.hosts.find((h) => h.profile === 'down')!;
    expect(down.hostname).toBe('worker-01');
    expect(await refused(down)).toBe('ECONNREFUSED');
  });

  it('follows the injected clock: CPU % from two scrapes 15 simulated seconds apart', async () => {
    const hot = fleet.hosts.find((h) => h.hostname === 'api-01')!;
    const calm = fleet.hosts.find((h) => h.hostname === 'web-01')!;
    const scrape = async (h: DemoHost) => parse(await (await fetch(url(h))).text());
    clock += 10 * 60_000;
    const [hotA, calmA] = [await scrape(hot), await scrape(calm)];
    clock += 15_000;
    const [hotB, calmB] = [await scrape(hot), await scrape(calm)];
    expect(cpuBusyPercent(hotA, hotB, 15)).toBeGreaterThan(90);
    expect(cpuBusyPercent(calmA, calmB, 15)).toBeLessThan(75);
  });

  it('shows failed services over HTTP too', async () => {
    const text = async (hostname: string) => parse(await (await fetch(url(fleet.hosts.find((h) => h.hostname === hostname)!))).text());
    expect(downServices(await text('cache-01'))).toContain('redis-server.service');
    expect(downServices(await text('win-iis-01'))).toContain('w3svc');
  });

  it('answers / with a landing page, unknown paths with 404 and other methods with 405', async () => {
    const h = fleet.hosts[0]!;
    const landing = await fetch(url(h, '/'));
    expect(landing.status).toBe(200);
    expect(await landing.text()).toContain('<a href="/metrics">');
    expect((await fetch(url(h, '/nope'))).status).toBe(404);
    expect((await fetch(url(h), { method: 'POST' })).status).toBe(405);
    expect((await fetch(url(h), { method: 'HEAD' })).status).toBe(200);
  });
});


describe('demo fleet binding', () => {
  it('keeps every host on an address of its own when its port is held there (another port), and the down host refusing', async () => {
    // A wildcard listener on the port, like a real node_exporter on 0.0.0.0:9100, held throughout.
    const blocker: Server = createServer((socket) => socket.destroy());
    blocker.listen(0, '0.0.0.0');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    const specs = defaultFleetSpecs(12).filter((s) => s.hostname === 'web-01' || s.hostname === 'worker-01');
    const t0 = Date.now();
    const fleet = await startDemoFleet({ specs, port, now });
    try {
      const [web, worker] = fleet.hosts;
      // Waited for the port (a previous process may be closing), then took another one.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(BIND_WAIT_MS - 100);
      expect(web).toMatchObject({ hostname: 'web-01', ipaddress: demoAddress(0) });
      expect(web!.port).not.toBe(port);
      expect((await fetch(url(web!))).status).toBe(200);
      expect(worker).toMatchObject({ hostname: 'worker-01', ipaddress: demoAddress(1) });
      expect(worker!.port).not.toBe(port);
      expect(await refused(worker!)).toBe('ECONNREFUSED');
    } finally {
      await fleet.stop();
      blocker.close();
    }
  });

  it('a second fleet beside a running one keeps distinct addresses (11 of 12 hosts were 127.0.0.1)', async () => {
    const port = await freeDemoPort();
    const first = await startDemoFleet({ count: 12, port, now, payload: 'light' });
    expect(first.hosts.map((h) => `${h.ipaddress}:${h.port}`)).toEqual(first.hosts.map((_, i) => `${demoAddress(i)}:${port}`));
    // Its live hosts hold their addresses on that port while a second fleet asks for the same.
    const second = await startDemoFleet({ count: 12, port, now, payload: 'light' });
    try {
      expect(second.hosts.map((h) => h.ipaddress)).toEqual(first.hosts.map((_, i) => demoAddress(i)));
      for (const h of second.hosts.filter((x) => x.profile !== 'down')) expect((await fetch(url(h))).status).toBe(200);
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it('waits for its own address and port while a previous process releases them', async () => {
    const port = await freeDemoPort();
    const previous: Server = createServer((socket) => socket.destroy());
    previous.listen(port, demoAddress(0));
    await once(previous, 'listening');
    setTimeout(() => previous.close(), 600);
    const specs = defaultFleetSpecs(12).filter((s) => s.hostname === 'web-01');
    const fleet = await startDemoFleet({ specs, port, now, payload: 'light' });
    try {
      expect(fleet.hosts[0]).toMatchObject({ hostname: 'web-01', ipaddress: demoAddress(0), port });
      expect((await fetch(url(fleet.hosts[0]!))).status).toBe(200);
    } finally {
      await fleet.stop();
    }
  });

  it('stops: afterwards nothing answers', async () => {
    const fleet = await startDemoFleet({ count: 2, port: 0, now });
    const h = fleet.hosts[0]!;
    expect((await fetch(url(h))).status).toBe(200);
    await fleet.stop();
    expect(await refused(h)).toBe('ECONNREFUSED');
  });
});

describe('cli', () => {
  it('prints the hosts as one JSON line once listening, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/demo/cli.ts', '--count', '3', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const { hosts } = JSON.parse(line) as { hosts: DemoHost[] };
      expect(hosts.map((h) => h.hostname)).toEqual(['web-01', 'edge-01', 'api-01']);
      expect((await fetch(url(hosts[2]!))).status).toBe(200);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
