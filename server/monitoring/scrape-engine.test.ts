/**
 * The scrape worker's half, in this thread: what it sends across (keys once, services on
 * change, values aligned to the keys) from real HTTP scrapes, and the learned family filter
 * staying exact when an exporter starts offering other families.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveScrape } from './derive';
import { parseExpositionDetailed } from './exposition';
import { parseAndDerive, ScrapeEngine } from './scrape-engine';
import type { FromWorker, ScrapeResult, WorkerTarget } from './scrape-protocol';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('parseAndDerive', () => {
  it('parses in full again when the derivation asks for a family outside the learned set (an exporter changed)', () => {
    const old = fixture('windows-exporter-0.20.prom');
    expect(old).toContain('windows_os_visible_memory_bytes ');
    // A newer exporter names total memory windows_memory_physical_total_bytes, so the first
    // derivation never looks for the old name…
    const newer = old.replaceAll('windows_os_visible_memory_bytes', 'windows_memory_physical_total_bytes');
    const state: Parameters<typeof parseAndDerive>[3] = {};
    const first = parseAndDerive('windows', newer, 1_000, state);
    expect(first.derived!.usage.memoryTotal).toBeGreaterThan(0);
    expect(state.wanted!.has('windows_memory_physical_total_bytes')).toBe(true);
    expect(state.wanted!.has('windows_os_visible_memory_bytes')).toBe(false);
    const memory = state.memory;
    // …then the host is rolled back to the old exporter: the old name must still be read.
    const second = parseAndDerive('windows', old, 16_000, state);
    const full = deriveScrape('windows', parseExpositionDetailed(old).scrape, 16_000, memory).derived;
    expect(second.derived).toEqual(full);
    expect(second.derived!.usage.memoryTotal).toBe(first.derived!.usage.memoryTotal);
    expect(state.wanted!.has('windows_os_visible_memory_bytes')).toBe(true);
    expect(second.samples).toBe(parseExpositionDetailed(old).samples);
  });

  it('derives from the learned families exactly what a full parse derives', () => {
    const a = fixture('node-exporter-scrape1.prom');
    const b = fixture('node-exporter-scrape2.prom');
    const state: Parameters<typeof parseAndDerive>[3] = {};
    parseAndDerive('linux', a, 1_000, state);
    const memory = state.memory;
    const wanted = state.wanted;
    const filtered = parseAndDerive('linux', b, 16_000, state);
    expect(state.wanted).toBe(wanted);
    expect(filtered.derived).toEqual(deriveScrape('linux', parseExpositionDetailed(b).scrape, 16_000, memory).derived);
    expect(Object.keys(filtered.derived!.series).length).toBeGreaterThan(30);
  });
});

describe('ScrapeEngine', () => {
  let exporter: Server;
  let body = '';
  const messages: FromWorker[] = [];
  const engine = new ScrapeEngine((m) => messages.push(m));
  let target: WorkerTarget;
  const units = fixture('node-systemd-units.prom');

  beforeAll(async () => {
    body = fixture('node-exporter-scrape1.prom') + units;
    exporter = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(body));
    await new Promise<void>((resolve) => exporter.listen(0, '127.0.0.1', resolve));
    target = { id: 'host-1', ipaddress: '127.0.0.1', agentPort: (exporter.address() as AddressInfo).port, os: 'linux', gen: 0 };
    engine.configure({ intervalS: 60, timeoutS: 5, concurrency: 2, settleMs: 2000 });
  });
  afterAll(async () => {
    await engine.stop();
    await new Promise((resolve) => exporter.close(resolve));
  });

  const up = (r: ScrapeResult | null) => {
    if (r?.kind !== 'up') throw new Error(`expected an up result, got ${JSON.stringify(r)}`);
    return r;
  };

  it('sends the series keys once, then only values in the same order, and services only when they change', async () => {
    const first = up(await engine.scrapeNow(target));
    expect(first.keyBase).toBe(0);
    expect(first.keysAdded).toContain('mem_total_bytes');
    expect(first.values.length).toBe(first.keysAdded.length);
    expect(first.services).toEqual(expect.arrayContaining([{ name: 'nginx.service', status: 'down' }, { name: 'cron.service', status: 'up' }]));
    expect(first.samples).toBe(parseExpositionDetailed(body).samples);

    const second = up(await engine.scrapeNow(target));
    // The rates appear on the second scrape: only those keys are new.
    expect(second.keyBase).toBe(first.keysAdded.length);
    expect(second.keysAdded.every((k) => !first.keysAdded.includes(k))).toBe(true);
    const keys = [...first.keysAdded, ...second.keysAdded];
    expect(second.values.length).toBe(keys.length);
    expect(second.values[keys.indexOf('mem_total_bytes')]).toBe(first.values[0 + first.keysAdded.indexOf('mem_total_bytes')]);
    expect(second.services).toBeUndefined();

    body = body.replace('node_systemd_unit_state{name="nginx.service",state="active",type="forking"} 0', 'node_systemd_unit_state{name="nginx.service",state="active",type="forking"} 1');
    body = body.replace('node_systemd_unit_state{name="nginx.service",state="failed",type="forking"} 1', 'node_systemd_unit_state{name="nginx.service",state="failed",type="forking"} 0');
    const third = up(await engine.scrapeNow(target));
    expect(third.keysAdded).toEqual([]);
    expect(third.services).toEqual(expect.arrayContaining([{ name: 'nginx.service', status: 'up' }]));
    // Asked to send them again (the main thread could not write them): sent though unchanged.
    engine.resendServices(target.id);
    expect(up(await engine.scrapeNow(target)).services).toEqual(third.services);
  });

  it('numbers keys afresh and forgets counters for a new generation of the target (re-pointed)', async () => {
    const moved = up(await engine.scrapeNow({ ...target, gen: 1 }));
    expect(moved.gen).toBe(1);
    expect(moved.keyBase).toBe(0);
    // First scrape of the new generation: no rates yet.
    expect(moved.usage[0]).toBeNaN();
    expect(moved.services).toBeDefined();
    // A round still holding the list from before the move is not about this target any more,
    // and must not reset what the new generation remembers.
    expect(await engine.scrapeNow(target)).toBeNull();
    const next = up(await engine.scrapeNow({ ...target, gen: 1 }));
    expect(next.keyBase).toBeGreaterThan(0);
    expect(Number.isNaN(next.usage[0]!)).toBe(false);
  });

  it('reports a refused connection as down with the reason, and a page without metrics as down', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await engine.scrapeNow({ ...target, id: 'gone', agentPort: port });
    expect(refused).toMatchObject({ kind: 'down', failedFetch: true, reason: `Connection refused at 127.0.0.1:${port}` });
    body = '<html>It works</html>\n';
    expect(await engine.scrapeNow({ ...target, id: 'page' })).toMatchObject({ kind: 'down', failedFetch: false, reason: expect.stringMatching(/^The answer held no metrics/) });
  });
});
