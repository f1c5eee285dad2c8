import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ADMIN = { email: 'admin@opsdeck.test', password: 'e2e-admin-password', username: 'admin' };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  /** Sends SIGTERM to the process group; resolves with how long the exit took and whether it was clean. */
  stop: () => Promise<{ clean: boolean; ms: number }>;
}

/** Starts the console exactly as `npm start` does, on a free port and a fresh data folder. */
export async function startServer(options: { dataDir?: string; env?: Record<string, string> } = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'opsdeck-e2e-'));
  let out = '';
  const child = spawn('npm', ['start', '--silent'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_USERNAME: ADMIN.username,
      DEMO_FLEET: '0',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() can signal npm and the server together, as a service
    // manager (systemd, a container runtime) does.
    detached: true,
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not answer within 120 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    dataDir,
    child,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve({ clean: out.includes('stopped cleanly'), ms: 0 });
        const t0 = Date.now();
        child.once('exit', () => {
          // npm may exit first; give the server its moment to print and leave.
          const wait = setInterval(() => {
            if (out.includes('stopped cleanly') || Date.now() - t0 > 5000) {
              clearInterval(wait);
              resolve({ clean: out.includes('stopped cleanly'), ms: Date.now() - t0 });
            }
          }, 20);
        });
        try {
          process.kill(-child.pid!, 'SIGTERM');
        } catch {
          child.kill('SIGTERM');
        }
      }),
  };
}
