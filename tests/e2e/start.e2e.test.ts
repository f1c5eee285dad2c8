import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { demoAddress } from '../../server/demo/fleet';
import { apiSession } from './http';
import { ADMIN, startServer } from './server-process';
import { freeDemoPort } from '../../server/demo/testing';


// "Two commands": npm start prints how to sign in, the credentials work, a signal to npm's pid
// (what a process manager sends: to that pid, not its group) stops everything within 2 s, and
// what was written before the stop is there after the next start.
describe('npm start', () => {
  let dataDir: string | undefined;

  it('prints the sign-in credentials, serves UI and API, stops cleanly on SIGTERM to npm and keeps the data', async () => {
    // A first start anywhere: the embedded database is made and migrated by this start.
    const first = await startServer({ fresh: true });
    dataDir = first.dataDir;
    try {
      expect(first.output()).toContain(`Sign in with ${ADMIN.email} / ${ADMIN.password}`);
      expect(first.output()).toMatch(/Opsdeck is running at http:\/\/127\.0\.0\.1:\d+/);
      // The suite's build step (or the global setup's start) built it: this start reuses it.
      expect(first.output()).not.toMatch(/Building|rebuilding/);
      const html = await (await fetch(`${first.url}/users`)).text();
      expect(html).toContain('<div id="root">');
      const api = await apiSession(first.url);
      expect((await api.createUser({ username: 'kept', email: 'kept@example.com' })).status).toBe(201);
    } finally {
      const { clean, ms, leftover } = await first.stop('SIGTERM');
      expect(leftover, first.output()).toEqual([]);
      expect(clean, first.output()).toBe(true);
      expect(ms).toBeLessThan(2000);
    }
    expect(first.output()).toContain('SIGTERM received: shutting down');

    const second = await startServer({ dataDir: first.dataDir });
    try {
      // The admin exists now: the password is not printed again.
      expect(second.output()).not.toContain(ADMIN.password);
      const api = await apiSession(second.url);
      expect(await api.findUserByEmail('kept@example.com')).toMatchObject({ username: 'kept' });
    } finally {
      const { clean, ms, leftover } = await second.stop('SIGINT');
      expect(leftover, second.output()).toEqual([]);
      expect(clean, second.output()).toBe(true);
      expect(ms).toBeLessThan(2000);
    }
    expect(second.output()).toContain('SIGINT received: shutting down');
  });

  it('stops the server when npm itself is killed (SIGKILL passes nothing on): no orphan keeps the port', async () => {
    // The first test's data folder: reopening it takes a second where a new one takes several.
    const server = await startServer({ dataDir });
    const { clean, ms, leftover } = await server.stop('SIGKILL');
    expect(leftover, server.output()).toEqual([]);
    expect(clean, server.output()).toBe(true);
    // Noticed within the watch's 100 ms, then the same shutdown as a signal (cut at 1.8 s): the
    // README's 2 s is for SIGTERM/SIGINT; here what matters is that nothing outlives npm.
    expect(ms).toBeLessThan(3000);
    expect(server.output()).toContain('The parent process exited: shutting down');
    await expect(fetch(`${server.url}/api/health`)).rejects.toThrow();
  });

  it('first start beside another fleet: each demo host registered at its own address (11 of 12 were 127.0.0.1), re-pointed to the port once free', async () => {
    // Another console's demo fleet holds the addresses on the port this one asks for.
    const port = await freeDemoPort();
    const held: Server[] = [];
    for (let i = 0; i < 12; i++) {
      const s = createServer((socket) => socket.destroy()).listen(port, demoAddress(i));
      await once(s, 'listening');
      held.push(s);
    }
    const env = { DEMO_FLEET: '1', DEMO_FLEET_PORT: String(port), DEMO_PAYLOAD: 'light' };
    type Row = { hostname: string; ipaddress: string; agentPort: number };
    const registered = async (url: string) => {
      const api = await apiSession(url);
      const res = await api.call<{ result: { data: Row[] } }>('POST', 'servers/all', { pageNumber: 1, pageSize: 25, sort: { by: 'hostname', direction: 'asc' } });
      return res.body.result.data;
    };
    const first = await startServer({ env });
    try {
      expect(first.output()).toContain('Demo fleet: 12 simulated hosts on loopback (registered 12 servers)');
      const rows = await registered(first.url);
      expect(rows).toHaveLength(12);
      expect(new Set(rows.map((r) => r.ipaddress)).size).toBe(12);
      expect(rows.map((r) => r.ipaddress).sort()).toEqual(Array.from({ length: 12 }, (_, i) => demoAddress(i)).sort());
      expect(rows.filter((r) => r.agentPort === port)).toEqual([]);
    } finally {
      await first.stop();
      for (const s of held) s.close();
    }
    // The next start finds the port free: every host back on its own address at that port.
    const second = await startServer({ dataDir: first.dataDir, env });
    try {
      expect((await registered(second.url)).map((r) => `${r.ipaddress}:${r.agentPort}`).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `${demoAddress(i)}:${port}`).sort());
    } finally {
      await second.stop();
    }
  }, 300_000);
});
