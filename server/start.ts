/**
 * `npm start`: build the UI if it is missing or stale, migrate, create the first admin, serve.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { count } from 'drizzle-orm';
import { buildApp } from './app';
import { hashPassword } from './auth/password';
import { loadConfig } from './config';
import { openDatabase } from './db/client';
import { users } from './db/schema';
import { startDemoFleet, type DemoFleet } from './demo/fleet';
import { registerDemoFleet } from './demo/register';

const UI_SOURCES = ['src', 'commands', 'server/contract', 'index.html', 'vite.config.ts', 'package.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function ensureUiBuilt(): void {
  const built = join('dist', 'index.html');
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  const changedAt = Math.max(...UI_SOURCES.map(newestMtime));
  if (builtAt >= changedAt) return;
  console.log(builtAt ? 'The UI sources changed since the last build: building the UI…' : 'Building the UI (first start)…');
  const res = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('The UI build failed; see the messages above.');
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.skipUiBuild) ensureUiBuilt();

  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const [{ n } = { n: 0 }] = await database.db.select({ n: count() }).from(users);
  let createdAdmin = false;
  if (Number(n) === 0) {
    await database.db.insert(users).values({
      username: config.admin.username,
      email: config.admin.email,
      phonenumber: '',
      passwordHash: await hashPassword(config.admin.password),
      role: 'admin',
      status: 'active',
    });
    createdAdmin = true;
  }

  // The demo fleet listens before the first scrape so no demo host starts out 'down'.
  let fleet: DemoFleet | undefined;
  let demoLine = 'Demo fleet: off (DEMO_FLEET=0)';
  if (config.demo.enabled) {
    fleet = await startDemoFleet({ count: config.demo.size, port: config.demo.port });
    const { created } = await registerDemoFleet(database, fleet.hosts);
    demoLine = `Demo fleet: ${fleet.hosts.length} simulated hosts on loopback${created ? ` (registered ${created} servers)` : ''}`;
  }

  const app = await buildApp(config, { database });
  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${config.port}`;
  const lines = [
    `Opsdeck is running at ${url}`,
    `Database: ${database.kind === 'pglite' ? `embedded PostgreSQL (PGlite) in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    config.monitoring.prometheusUrl ? `Monitoring: Prometheus at ${config.monitoring.prometheusUrl}` : `Monitoring: built-in, scraping every ${config.monitoring.scrapeIntervalS} s`,
    demoLine,
    createdAdmin
      ? `Sign in with ${config.admin.email} / ${config.admin.password}`
      : `Sign in with your account (first admin: ${config.admin.email})`,
  ];
  const width = Math.max(...lines.map((l) => l.length));
  console.log(`\n┌${'─'.repeat(width + 2)}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${'─'.repeat(width + 2)}┘\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: shutting down…`);
    // Never hang a deploy: whatever is still open after 2 s is cut off.
    const force = setTimeout(() => {
      console.error('Shutdown took longer than 2 s; exiting anyway.');
      process.exit(1);
    }, 2000);
    force.unref();
    try {
      await app.close();
      await fleet?.stop();
      await database.close();
      console.log('Opsdeck stopped cleanly.');
      process.exit(0);
    } catch (err) {
      console.error(err);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
