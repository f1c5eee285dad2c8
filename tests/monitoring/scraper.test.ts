/**
 * The built-in scraper end to end on a real database (PGlite): ScrapeCollector → derive →
 * ObservationWriter → servers / services rows and the MetricStore.
 * (a) Against the demo fleet over loopback HTTP, plus a dead and a hanging target.
 * (b) Against Debian's real prometheus-node-exporter on this machine.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/client';
import { defaultFleetSpecs, startDemoFleet, type DemoFleet, type DemoHost } from '../../server/demo/fleet';
import { downServices, parse, rootUsedPercent } from '../../server/demo/testing';
import { MetricStore } from '../../server/monitoring/metric-store';
import { ObservationWriter } from '../../server/monitoring/observations';
import { ScrapeCollector, type Logger, type Target } from '../../server/monitoring/scrape-collector';
import { freePort, haveNodeExporter, startNodeExporter, waitFor, type Proc } from './processes';

interface Row {
  id: string;
  hostname: string;
  state: string;
  lastError: string | null;
  stateChangedAt: Date | null;
  lastScrapedAt: Date | null;
  cpuUsage: number | null;
  memoryUsage: number | null;
  diskUsage: number | null;
  networkUsage: number | null;
  swapUsage: number | null;
  uptime: number | null;
  cpuLoad1: number | null;
  cpuLoad5: number | null;
  cpuLoad15: number | null;
  cpuCores: number | null;
  memorySaturation: number | null;
  memoryTotal: number | null;
  swapTotal: number | null;
}

const ROW = `select id, hostname, state, last_error as "lastError", state_changed_at as "stateChangedAt", last_scraped_at as "lastScrapedAt",
  cpu_usage as "cpuUsage", memory_usage as "memoryUsage", disk_usage as "diskUsage", network_usage as "networkUsage",
  swap_usage as "swapUsage", uptime, cpu_load1 as "cpuLoad1", cpu_load5 as "cpuLoad5", cpu_load15 as "cpuLoad15",
  cpu_cores as "cpuCores", memory_saturation as "memorySaturation", memory_total as "memoryTotal", swap_total as "swapTotal"
  from servers`;

async function addServer(database: Database, s: { hostname: string; ipaddress: string; port: number; os: 'linux' | 'windows'; configured?: boolean }): Promise<string> {
  const rows = await database.query<{ id: string }>(
    `insert into servers (hostname, ipaddress, agent_port, operating_system, is_agent_configured, is_agent_installed)
     values ($1, $2, $3, $4, $5, true) returning id`,
    [s.hostname, s.ipaddress, s.port, s.os, s.configured ?? true],
  );
  return rows[0]!.id;
}

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (obj, msg) => lines.push(`warn ${msg} ${JSON.stringify(obj)}`), error: (obj, msg) => lines.push(`error ${msg} ${JSON.stringify(obj)}`) };
}

let database: Database;

beforeAll(async () => {
  database = await openDatabase({});
});
afterAll(async () => {
  await database?.close();
});

// Two Linux and two Windows hosts including the failing-services ones, the hot one and the
// down one: every path through linux.ts / windows.ts and the writer.
const PICK = ['web-01', 'api-01', 'cache-01', 'worker-01', 'win-ad-01', 'win-iis-01'];
const INTERVAL_S = 0.5;
const TIMEOUT_S = 1.5;

describe('scraping the demo fleet', () => {
  const specs = defaultFleetSpecs(12).filter((s) => PICK.includes(s.hostname));
  let fleet: DemoFleet;
  let hanging: Server;
  /** Answers 200 with a web page: something listens on the port, but not an exporter. */
  let webPage: Server;
  /** When the hanging target was asked for /metrics. */
  const hangingAsked: number[] = [];
  const ids = new Map<string, string>();
  const log = recordingLogger();
  let store: MetricStore;
  let collector: ScrapeCollector;
  let startedAt: number;

  const row = async (hostname: string) => (await database.query<Row>(`${ROW} where id = $1`, [ids.get(hostname)!]))[0]!;
  const spec = (hostname: string) => specs.find((s) => s.hostname === hostname)!;
  const host = (hostname: string) => fleet.hosts.find((h) => h.hostname === hostname)!;
  const scrapeDirect = async (h: DemoHost) => parse(await (await fetch(`http://${h.ipaddress}:${h.port}/metrics`)).text());
  const samples = async (hostname: string) =>
    Number((await database.query<{ n: number }>('select count(*)::int as n from metric_samples where server_id = $1', [ids.get(hostname)!]))[0]!.n);

  beforeAll(async () => {
    // Light payloads: this checks the scraper's states and timings at a 0.5 s interval, where
    // parsing 1,500-sample payloads on a loaded two-core machine would eat the margins.
    fleet = await startDemoFleet({ specs, port: 0, payload: 'light' });
    // Accepts the connection and never answers: the exporter that hangs.
    hanging = createServer(() => hangingAsked.push(Date.now()));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    webPage = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>It works!</body></html>\n'));
    await new Promise<void>((resolve) => webPage.listen(0, '127.0.0.1', resolve));
    const deadPort = await freePort();

    for (const h of fleet.hosts) ids.set(h.hostname, await addServer(database, { hostname: h.hostname, ipaddress: h.ipaddress, port: h.port, os: h.os }));
    ids.set('dead', await addServer(database, { hostname: 'dead', ipaddress: '127.0.0.1', port: deadPort, os: 'linux' }));
    ids.set('web-page', await addServer(database, { hostname: 'web-page', ipaddress: '127.0.0.1', port: (webPage.address() as { port: number }).port, os: 'linux' }));
    ids.set('hanging', await addServer(database, { hostname: 'hanging', ipaddress: '127.0.0.1', port: (hanging.address() as { port: number }).port, os: 'linux' }));

    store = new MetricStore(database);
    // Fewer slots than targets: the hanging one holds a slot for its whole timeout.
    collector = new ScrapeCollector(database, new ObservationWriter(database, store), { intervalS: INTERVAL_S, timeoutS: TIMEOUT_S, concurrency: 4, retentionHours: 1 }, log);
    collector.start();
    // The first round starts once the scrape worker has loaded (from source, tsx compiles it first).
    await collector.ready();
    startedAt = Date.now();
  });

  afterAll(async () => {
    await collector?.stop();
    hanging?.closeAllConnections();
    await new Promise((resolve) => hanging?.close(resolve));
    await new Promise((resolve) => webPage?.close(resolve));
    await fleet?.stop();
  });

  it('marks the down host and a closed port down at once, with the reason', async () => {
    for (const hostname of ['worker-01', 'dead']) {
      const r = await waitFor(`${hostname} down`, async () => {
        const r = await row(hostname);
        return r.state === 'down' && r;
      });
      expect(r.lastError).toMatch(/^Connection refused at 127\.0\.\d+\.\d+:\d+$/);
      expect(r.lastScrapedAt).toBeNull();
      // Refused in milliseconds, not after the timeout.
      expect(r.stateChangedAt!.getTime() - startedAt).toBeLessThan(TIMEOUT_S * 1000);
    }
  });

  it('marks a port that answers without metrics down, not up with empty figures', async () => {
    const r = await waitFor('web-page down', async () => {
      const r = await row('web-page');
      return r.state === 'down' && r;
    });
    expect(r.lastError).toMatch(/^The answer held no metrics/);
    expect(r.cpuUsage).toBeNull();
  });

  it('marks a target that never answers down when its timeout runs out', async () => {
    const r = await waitFor(
      'hanging down',
      async () => {
        const r = await row('hanging');
        return r.state === 'down' && r;
      },
      10_000,
      25,
    );
    // stateChangedAt is when that scrape started; the deadline cannot fire early, and PGlite
    // sharing this process's event loop on a busy machine can make it a little late.
    const waited = Date.now() - r.stateChangedAt!.getTime();
    expect(r.lastError).toBe(`No answer within ${TIMEOUT_S} s`);
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_S * 1000);
    expect(waited).toBeLessThan(TIMEOUT_S * 1000 + 1500);
    expect(hangingAsked.length).toBeGreaterThan(0);
  });

  it('has the live hosts up with plausible usage after two scrapes', async () => {
    const live = specs.filter((s) => s.profile !== 'down');
    await waitFor('two scrapes of every live host', async () => {
      for (const s of live) if ((await row(s.hostname)).cpuUsage === null) return false;
      return true;
    }, 15_000, 100);
    for (const s of live) {
      const r = await row(s.hostname);
      const direct = await scrapeDirect(host(s.hostname));
      const label = `${s.hostname}`;
      expect(r.state, label).toBe('up');
      expect(r.lastError, label).toBeNull();
      for (const pct of [r.cpuUsage, r.memoryUsage, r.diskUsage, r.swapUsage]) {
        expect(pct, label).toBeGreaterThanOrEqual(0);
        expect(pct, label).toBeLessThanOrEqual(100);
      }
      expect(r.cpuCores, label).toBe(s.cores);
      expect(r.memoryTotal, label).toBe(s.memoryBytes);
      expect(r.swapTotal, label).toBeGreaterThan(0);
      expect(r.networkUsage, label).toBeGreaterThan(0);
      expect(r.uptime, label).toBeGreaterThan(0);
      expect(r.memorySaturation, label).toBeGreaterThanOrEqual(0);
      if (s.os === 'linux') {
        // The root filesystem, as a direct read of the same exporter computes it (panel 154).
        expect(Math.abs(r.diskUsage! - rootUsedPercent(direct)), label).toBeLessThan(0.5);
        for (const load of [r.cpuLoad1, r.cpuLoad5, r.cpuLoad15]) expect(load, label).toBeGreaterThan(0);
      } else {
        // Every lettered volume together (panel 23): C:, D:, not HarddiskVolume1.
        const used = (name: string) =>
          direct.rows.filter((x) => x.name === name && !x.labels.volume!.startsWith('HarddiskVolume')).reduce((sum, x) => sum + x.value, 0);
        const size = used('windows_logical_disk_size_bytes');
        expect(Math.abs(r.diskUsage! - ((size - used('windows_logical_disk_free_bytes')) / size) * 100), label).toBeLessThan(0.5);
        expect([r.cpuLoad1, r.cpuLoad5, r.cpuLoad15], label).toEqual([null, null, null]);
      }
    }
    // The hot host reads hot; the quiet one does not.
    expect((await row('api-01')).cpuUsage).toBeGreaterThan(85);
    expect((await row('web-01')).cpuUsage).toBeLessThan(85);
  });

  it('writes the services of each host, failing ones down', async () => {
    const services = async (hostname: string) =>
      new Map(
        (await database.query<{ service_name: string; status: string }>('select service_name, status from services where server_id = $1', [ids.get(hostname)!])).map((r) => [
          r.service_name,
          r.status,
        ]),
      );
    for (const s of specs.filter((x) => x.profile !== 'down')) {
      const written = await services(s.hostname);
      // The services the exporter lists: systemd's .service units, or every Windows service.
      const direct = await scrapeDirect(host(s.hostname));
      const listed = new Set(
        direct.rows.filter((x) => (x.name === 'node_systemd_unit_state' && x.labels.name!.endsWith('.service')) || x.name === 'windows_service_state').map((x) => x.labels.name!),
      );
      expect(listed.size, s.hostname).toBeGreaterThanOrEqual(3);
      expect([...written.keys()].sort(), s.hostname).toEqual([...listed].sort());
      const failed = downServices(direct);
      if (s.profile === 'failing-services') {
        // The last listed service stays failed (the one before it flaps).
        const last = s.os === 'linux' ? `${s.services.at(-1)!}.service` : s.services.at(-1)!;
        expect(failed, s.hostname).toContain(last);
        expect(written.get(last), s.hostname).toBe('down');
        expect([...written].filter(([, status]) => status === 'up').length, s.hostname).toBeGreaterThanOrEqual(listed.size - 2);
      } else {
        expect(failed, s.hostname).toEqual([]);
        expect([...written.values()], s.hostname).toEqual([...listed].map(() => 'up'));
      }
    }
    expect((await services('worker-01')).size).toBe(0);
  });

  it('stores chart samples that MetricStore.query reads back', async () => {
    const web = ids.get('web-01')!;
    const keys = await store.keys(web);
    expect(keys).toEqual(expect.arrayContaining(['cpu_busy_pct', 'mem_total_bytes', 'fs_used_pct{mountpoint="/"}', 'net_rx_bits{device="eth0"}']));
    const window = await store.query(web, ['cpu_busy_pct', 'mem_total_bytes', 'no_such_series'], startedAt - 1000, Date.now(), 1);
    const cpu = window.values[0]!.filter((v): v is number => v !== null);
    expect(cpu.length).toBeGreaterThanOrEqual(2);
    for (const v of cpu) expect(v).toBeGreaterThanOrEqual(0);
    expect(new Set(window.values[1]!.filter((v) => v !== null))).toEqual(new Set([spec('web-01').memoryBytes]));
    expect(window.values[2]!.every((v) => v === null)).toBe(true);

    const win = ids.get('win-ad-01')!;
    expect(await store.keys(win)).toEqual(expect.arrayContaining(['cpu_busy_pct', 'disk_used_pct', 'volume_used_pct{volume="C:"}', 'services_by_state{state="running"}']));
    const disk = await store.query(win, ['disk_used_pct'], startedAt - 1000, Date.now(), 1);
    expect(disk.values[0]!.some((v) => v !== null)).toBe(true);
    // Nothing for the hosts that never answered.
    expect(await samples('worker-01')).toBe(0);
    expect(await samples('hanging')).toBe(0);
  });

  it('keeps scraping the others on schedule while the hanging target waits out its timeout', async () => {
    const before = await samples('web-01');
    const askedBefore = hangingAsked.length;
    const windowMs = 2 * TIMEOUT_S * 1000;
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const scraped = (await samples('web-01')) - before;
    // One scrape per interval would be 6 in 3 s; rounds held up by the hanging target gave one
    // per timeout or fewer (at most 2). More than that, with room for a loaded machine.
    expect(scraped).toBeGreaterThan(windowMs / (TIMEOUT_S * 1000));
    // The hanging target is asked again only after its previous request gave up, never twice at once.
    const asked = hangingAsked.length - askedBefore;
    expect(asked).toBeGreaterThanOrEqual(1);
    expect(asked).toBeLessThanOrEqual(Math.ceil(windowMs / (TIMEOUT_S * 1000)) + 1);
    expect(collector.stats.skipped).toBeGreaterThan(0);
    // The dead target is retried every round and stays down.
    expect((await row('dead')).state).toBe('down');
    expect(log.lines).toEqual([]);
  });

  it('drops the answer of a scrape under way when its server is re-pointed (forget) meanwhile', async () => {
    const port = (hanging.address() as { port: number }).port;
    // Not agent-configured, so the running collector leaves it alone; scraped by hand here
    // against the hanging exporter (the row's own address only has to be unique).
    const id = await addServer(database, { hostname: 'moved', ipaddress: '127.0.0.3', port, os: 'linux', configured: false });
    const quick = new ScrapeCollector(database, new ObservationWriter(database, store), { intervalS: 60, timeoutS: 0.3, concurrency: 1, retentionHours: 1 }, log);
    const target: Target = { id, ipaddress: '127.0.0.1', agentPort: port, os: 'linux' };
    const underway = quick.scrape(target);
    quick.forget(id);
    await underway;
    expect((await database.query<Row>(`${ROW} where id = $1`, [id]))[0]!.state).toBe('unknown');
    // The same scrape, not forgotten, marks it down.
    await quick.scrape(target);
    expect((await database.query<Row>(`${ROW} where id = $1`, [id]))[0]!.state).toBe('down');
  });

  it('stops promptly, cutting the hanging request short without marking anything', async () => {
    const before = (await row('hanging')).stateChangedAt;
    const t0 = Date.now();
    await collector.stop();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect((await row('hanging')).stateChangedAt).toEqual(before);
  });
});

describe.skipIf(!haveNodeExporter)('scraping a real prometheus-node-exporter', () => {
  let exporter: Proc;
  let target: Target;
  let collector: ScrapeCollector;
  const log = recordingLogger();

  beforeAll(async () => {
    const port = await freePort();
    exporter = startNodeExporter(port);
    await waitFor('node exporter', async () => (await fetch(`http://127.0.0.1:${port}/metrics`)).ok, 10_000, 100).catch((error) => {
      throw new Error(`${(error as Error).message}\n${exporter.output()}`);
    });
    const id = await addServer(database, { hostname: os.hostname(), ipaddress: '127.0.0.1', port, os: 'linux' });
    target = { id, ipaddress: '127.0.0.1', agentPort: port, os: 'linux' };
    collector = new ScrapeCollector(database, new ObservationWriter(database, new MetricStore(database)), { intervalS: 60, timeoutS: 5, concurrency: 1, retentionHours: 1 }, log);
  });
  afterAll(async () => {
    await collector?.stop();
    await exporter?.stop();
  });

  it('has the server up with every figure after two scrapes', async () => {
    await collector.scrape(target);
    const first = (await database.query<Row>(`${ROW} where id = $1`, [target.id]))[0]!;
    expect(first.state).toBe('up');
    expect(first.cpuUsage).toBeNull();
    // Long enough for the kernel's per-CPU tick counters to move.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await collector.scrape(target);
    const r = (await database.query<Row>(`${ROW} where id = $1`, [target.id]))[0]!;

    const text = await (await fetch(`http://127.0.0.1:${target.agentPort}/metrics`)).text();
    const direct = parse(text);
    const exporterCpus = new Set(direct.rows.filter((x) => x.name === 'node_cpu_seconds_total').map((x) => x.labels.cpu)).size;
    const memTotalKb = Number(/^MemTotal:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'))![1]);
    const rootReported = direct.rows.some((x) => x.name === 'node_filesystem_size_bytes' && x.labels.mountpoint === '/' && x.labels.fstype !== 'rootfs');

    expect(r.state).toBe('up');
    expect(r.lastError).toBeNull();
    expect(r.cpuUsage).toBeGreaterThanOrEqual(0);
    expect(r.cpuUsage).toBeLessThanOrEqual(100);
    expect(r.memoryUsage).toBeGreaterThan(0);
    expect(r.memoryUsage).toBeLessThan(100);
    // node_exporter leaves out overlay filesystems: in a container whose / is an overlay there is no root figure.
    if (rootReported) {
      expect(r.diskUsage).toBeGreaterThan(0);
      expect(Math.abs(r.diskUsage! - rootUsedPercent(direct))).toBeLessThan(1);
    } else {
      console.warn('node_exporter reports no root filesystem here (overlay?): diskUsage stays null');
      expect(r.diskUsage).toBeNull();
    }
    expect(r.networkUsage).toBeGreaterThanOrEqual(0);
    expect(r.uptime).toBeGreaterThan(0);
    expect(Math.abs(r.uptime! - os.uptime())).toBeLessThan(5);
    expect(r.cpuCores).toBe(exporterCpus);
    expect([os.cpus().length, exporterCpus]).toContain(r.cpuCores);
    expect(r.memoryTotal).toBe(memTotalKb * 1024);
    expect(r.cpuLoad1).toBeGreaterThanOrEqual(0);
    expect(r.cpuLoad15).toBeGreaterThanOrEqual(0);
    expect(r.memorySaturation).toBeGreaterThanOrEqual(0);
    expect(log.lines).toEqual([]);
  });
});
