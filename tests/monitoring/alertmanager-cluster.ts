import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, run, waitFor, type Proc } from './processes';

export const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
export const haveAlertmanager = existsSync(ALERTMANAGER);

/** One notification as Alertmanager's webhook sends it (payload version 4). */
export interface WebhookNotification {
  version: string;
  status: 'firing' | 'resolved';
  receiver: string;
  groupKey: string;
  alerts: { status: 'firing' | 'resolved'; labels: Record<string, string>; annotations: Record<string, string>; startsAt: string; endsAt: string; generatorURL: string; fingerprint: string }[];
  /** When the sink got it (Date.now()): not part of the payload. */
  receivedAt?: number;
}

/** A webhook receiver stand-in: keeps every notification it is sent. */
export async function startWebhookSink(): Promise<{ url: string; received: WebhookNotification[]; close: () => Promise<void> }> {
  const received: WebhookNotification[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      try {
        received.push({ ...(JSON.parse(body) as WebhookNotification), receivedAt: Date.now() });
      } catch {
        // not a notification
      }
      res.writeHead(200).end('ok');
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export interface AmInstance extends Proc {
  url: string;
  clusterAddress: string;
}

/**
 * Debian's prometheus-alertmanager, `size` instances clustered on loopback, routing everything to
 * `routeTo` (a webhook URL) with short group timings; gossip and failure detection are shortened
 * so the cluster forms and notices a dead peer in about a second.
 */
export async function startAlertmanagerCluster(options: { size: number; routeTo: string; routeToToken?: string }): Promise<{ instances: AmInstance[]; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-am-'));
  const config = `route:
  receiver: hook
  group_by: ['alertname', 'hostname']
  group_wait: 300ms
  group_interval: 1s
  repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${options.routeTo}
        send_resolved: true
${options.routeToToken ? `        http_config:\n          authorization:\n            credentials: ${options.routeToToken}\n` : ''}`;
  writeFileSync(join(dir, 'alertmanager.yml'), config);
  const ports = await Promise.all(Array.from({ length: options.size * 2 }, () => freePort()));
  const clusterAddresses = Array.from({ length: options.size }, (_, i) => `127.0.0.1:${ports[options.size + i]}`);
  const instances: AmInstance[] = clusterAddresses.map((clusterAddress, i) => {
    const web = `127.0.0.1:${ports[i]}`;
    const peers = clusterAddresses.filter((a) => a !== clusterAddress);
    const proc = run(ALERTMANAGER, [
      `--config.file=${join(dir, 'alertmanager.yml')}`,
      `--storage.path=${join(dir, `data-${i}`)}`,
      `--web.listen-address=${web}`,
      ...(options.size > 1 ? [`--cluster.listen-address=${clusterAddress}`, `--cluster.advertise-address=${clusterAddress}`, ...peers.map((p) => `--cluster.peer=${p}`)] : ['--cluster.listen-address=']),
      '--cluster.peer-timeout=1s',
      '--cluster.gossip-interval=50ms',
      '--cluster.pushpull-interval=1s',
      '--cluster.probe-interval=200ms',
      '--cluster.probe-timeout=100ms',
      '--cluster.settle-timeout=2s',
      '--cluster.reconnect-interval=1s',
      '--log.level=warn',
    ]);
    return { ...proc, url: `http://${web}`, clusterAddress };
  });
  // Ready, and (clustered) each instance sees all the others.
  for (const am of instances) {
    await waitFor(
      `alertmanager ${am.url} ready${options.size > 1 ? ' and clustered' : ''}`,
      async () => {
        const res = await fetch(`${am.url}/api/v2/status`);
        if (!res.ok) return false;
        const s = (await res.json()) as { cluster: { status: string; peers: unknown[] | null } };
        return options.size === 1 || (s.cluster.status === 'ready' && (s.cluster.peers?.length ?? 0) === options.size);
      },
      30_000,
      100,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${am.output()}`);
    });
  }
  return {
    instances,
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
