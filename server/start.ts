/**
 * `opsdeck start` (and `npm start`): migrate, create the first admin, start the demo fleet, serve,
 * and stop cleanly on SIGTERM/SIGINT.
 */
import { count } from 'drizzle-orm';
import { buildApp } from './app';
import { hashPassword } from './auth/password';
import { dumpPglite } from './backup/backup';
import { startControlChannel } from './backup/control';
import type { Config } from './config';
import { openDatabase } from './db/client';
import { users } from './db/schema';
import { startDemoFleet, type DemoFleet } from './demo/fleet';
import { registerDemoFleet } from './demo/register';
import { packageVersion } from './paths';
import { redactUrl } from './monitoring/prometheus-client';

export interface ServeOptions {
  /**
   * Stop when the parent process goes away (`npm start`): a process manager signals npm's pid,
   * and if anything between npm and node fails to pass the signal on (a shell that does not
   * exec, npm itself killed with SIGKILL), the server must not live on as an orphan holding the
   * port and the data folder. Off for the `opsdeck` binary, which may be started under nohup.
   */
  stopWithParent?: boolean;
}

/** Serves until SIGTERM or SIGINT; resolves once it listens. */
export async function serve(config: Config, options: ServeOptions = {}): Promise<void> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // `opsdeck backup` asks this process for the dump: no other may open the embedded database.
  const pglite = database.pglite;
  const control = pglite ? await startControlChannel(config.dataDir, packageVersion, { backup: () => dumpPglite(pglite) }, (m) => console.warn(m)) : undefined;
  const [{ n } = { n: 0 }] = await database.db.select({ n: count() }).from(users);
  let createdAdmin = false;
  if (Number(n) === 0) {
    // Replicas starting together on one PostgreSQL: the first insert wins, the others find it taken.
    const inserted = await database.db
      .insert(users)
      .values({
        username: config.admin.username,
        email: config.admin.email,
        phonenumber: '',
        passwordHash: await hashPassword(config.admin.password),
        role: 'admin',
        status: 'active',
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    createdAdmin = inserted.length > 0;
  }

  // The demo fleet listens before the first scrape so no demo host starts out 'down'.
  let fleet: DemoFleet | undefined;
  let demoLine = 'Demo fleet: off (DEMO_FLEET=0)';
  if (config.demo.enabled) {
    fleet = await startDemoFleet({ count: config.demo.size, port: config.demo.port, payload: config.demo.payload });
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
    config.monitoring.prometheusUrl ? `Monitoring: Prometheus at ${redactUrl(config.monitoring.prometheusUrl)}` : `Monitoring: built-in, scraping every ${config.monitoring.scrapeIntervalS} s`,
    demoLine,
    createdAdmin
      ? `Sign in with ${config.admin.email} / ${config.admin.password}`
      : `Sign in with your account (first admin: ${config.admin.email})`,
  ];
  const width = Math.max(...lines.map((l) => l.length));
  console.log(`\n┌${'─'.repeat(width + 2)}┐\n${lines.map((l) => `│ ${l.padEnd(width)} │`).join('\n')}\n└${'─'.repeat(width + 2)}┘\n`);

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}: shutting down…`);
    // Never hang a deploy: whatever is still open after 1.8 s is cut off, so the process is gone
    // within the 2 s the README promises.
    const force = setTimeout(() => {
      console.error('Shutdown took longer than 1.8 s; exiting anyway.');
      process.exit(1);
    }, 1800);
    force.unref();
    try {
      control?.close();
      control?.closeAllConnections();
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
  process.on('SIGTERM', () => void stop('SIGTERM received'));
  process.on('SIGINT', () => void stop('SIGINT received'));
  if (options.stopWithParent) {
    const parent = process.ppid;
    // process.ppid is read afresh on each access: an orphan is re-parented to init or a subreaper.
    setInterval(() => {
      if (process.ppid !== parent) void stop('The parent process exited');
    }, 100).unref();
  }
}
