import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { startSmtpSink } from '../api/smtp-sink';
import { apiSession } from './http';
import { freePort, startServer, type RunningServer } from './server-process';

/**
 * Issue 12 part 10: `opsdeck backup` of a running server with an embedded database and a queue
 * of notifications the SMTP relay refused, `opsdeck restore` into a new data folder, and the
 * restored console sends exactly what was still waiting: nothing lost, nothing sent twice.
 */

/** The opsdeck command as an operator runs it (the compiled binary `npm start` built). */
function opsdeck(args: string[], dataDir: string) {
  const res = spawnSync(process.execPath, ['bin/opsdeck.js', ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

/**
 * Four firing alerts, each with its notification queued in the outbox for the group's email list
 * (the queue itself, as the router leaves it: what reaches the outbox is the router's business).
 */
async function seed(dataDir: string): Promise<void> {
  const database = await openDatabase({ dataDir });
  try {
    const [group] = await database.query<{ id: string }>(`insert into notification_groups (name, email_enabled, email_list) values ('On call', true, '{oncall@example.com}') returning id`);
    const [server] = await database.query<{ id: string }>(`insert into servers (hostname, ipaddress, operating_system, is_agent_configured) values ('db-01', '10.250.0.1', 'linux', false) returning id`);
    for (const [i, host] of ['web-01', 'web-02', 'web-03', 'web-04'].entries()) {
      const [alert] = await database.query<{ id: string }>(
        `insert into alerts (server_id, hostname, instance, alertname, type, severity, status, subject) values ($1, $2, '10.250.0.1:9100', 'instance_down', 'resouce_alert', 'critical', 'firing', $2) returning id`,
        [server!.id, host],
      );
      // Apart in time: the worker sends oldest first, so web-01 and web-02 are the two the relay takes.
      await database.query(`insert into alert_outbox (alert_id, transition, notification_group_id, created_at) values ($1, 'firing', $2, now() - make_interval(secs => $3))`, [alert!.id, group!.id, 10 - i]);
    }
  } finally {
    await database.close();
  }
}

describe('opsdeck backup and restore', () => {
  const dirs: string[] = [];
  const fresh = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('backs up a running console with a pending delivery queue; the restored one sends only what was waiting', { timeout: 180_000 }, async () => {
    const smtpPort = await freePort();
    const env = { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, ALERT_EVALUATION: '0' };
    const dataDir = fresh('opsdeck-backup-');
    await seed(dataDir);

    // The relay takes two messages, then says "try later": two notifications wait for their retry.
    const relay = await startSmtpSink({ port: smtpPort, accept: 2 });
    server = await startServer({ dataDir, env });
    const admin = await apiSession(server.url);
    expect((await admin.createUser({ username: 'kept', email: 'kept@example.com' })).status).toBe(201);
    await expect.poll(() => relay.refused(), { timeout: 20_000 }).toBe(2);
    expect(relay.mails.map((m) => m.subject).sort()).toEqual(['[FIRING] instance_down on web-01 (critical)', '[FIRING] instance_down on web-02 (critical)']);
    await relay.close();

    const file = join(fresh('opsdeck-backup-file-'), 'opsdeck.backup');
    const backup = opsdeck(['backup', file], dataDir);
    expect(backup.out).toContain("Backed up the running server's database");
    expect(backup.code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Restoring under a running server is refused, naming it.
    const refused = opsdeck(['restore', file], dataDir);
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/Opsdeck \(pid \d+\) is running on .*: stop it first/);

    const stopped = await server.stop();
    expect(stopped.clean, server.output()).toBe(true);
    server = undefined;
    // With no server running, the folder is read directly.
    const direct = opsdeck(['backup', join(dirname(file), 'direct.backup')], dataDir);
    expect(direct.out).toContain('No server runs on');
    expect(direct.code).toBe(0);

    const restoredDir = fresh('opsdeck-restored-');
    const restored = opsdeck(['restore', file], restoredDir);
    expect(restored.out).toContain('Restored: 2 users, 1 server, 4 alerts, 2 notifications waiting to be sent.');
    expect(restored.code).toBe(0);
    // Restoring again over it needs --force, and keeps what was there.
    expect(opsdeck(['restore', file], restoredDir).out).toContain('already holds a database');

    const relayAgain = await startSmtpSink({ port: smtpPort });
    try {
      server = await startServer({ dataDir: restoredDir, env });
      const again = await apiSession(server.url);
      expect(await again.findUserByEmail('kept@example.com')).toMatchObject({ username: 'kept' });
      // The waiting two go out when their retry is due (30 s after the refusal)…
      await expect.poll(() => relayAgain.mails.length, { timeout: 60_000, interval: 500 }).toBe(2);
      expect(relayAgain.mails.map((m) => m.subject).sort()).toEqual(['[FIRING] instance_down on web-03 (critical)', '[FIRING] instance_down on web-04 (critical)']);
      // …and the two sent before the backup are never sent again.
      await new Promise((r) => setTimeout(r, 3000));
      expect(relayAgain.mails).toHaveLength(2);
    } finally {
      await relayAgain.close();
    }
  });
});
