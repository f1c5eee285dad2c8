import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
export { freePort } from '../e2e/server-process';

export const NODE_EXPORTER = '/usr/bin/prometheus-node-exporter';
export const PROMETHEUS = '/usr/bin/prometheus';
export const haveNodeExporter = existsSync(NODE_EXPORTER);
export const havePrometheus = existsSync(PROMETHEUS);

export interface Proc {
  child: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
  /** SIGKILL, resolved once it is gone (a crash, not a clean stop). */
  kill: () => Promise<void>;
}

export function run(cmd: string, args: string[]): Proc {
  let out = '';
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  return {
    child,
    output: () => out,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Debian's prometheus-node-exporter on loopback; systemd's collector only where systemd runs. */
export function startNodeExporter(port: number): Proc {
  const systemd = existsSync('/run/systemd/system');
  return run(NODE_EXPORTER, [`--web.listen-address=127.0.0.1:${port}`, ...(systemd ? [] : ['--no-collector.systemd'])]);
}

/** Debian's Prometheus discovering targets from Opsdeck's HTTP service discovery. */
export function startPrometheus(options: {
  port: number;
  sdUrl?: string;
  token?: string;
  scrapeIntervalS?: number;
  extraTargets?: string[];
  scrapeConfigs?: string;
  args?: string[];
  /** A rule file's content (alerting and recording rules), evaluated every interval. */
  rules?: string;
  /** Alertmanagers (host:port) the rules' alerts are sent to. */
  alertmanagers?: string[];
}): Proc & { url: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'opsdeck-prom-'));
  const interval = `${options.scrapeIntervalS ?? 1}s`;
  if (options.rules) writeFileSync(join(dir, 'rules.yml'), options.rules);
  const config = `global:
  scrape_interval: ${interval}
  scrape_timeout: ${interval}
  evaluation_interval: ${interval}
${options.rules ? `rule_files:\n  - ${join(dir, 'rules.yml')}\n` : ''}${
  options.alertmanagers?.length ? `alerting:\n  alertmanagers:\n    - static_configs:\n        - targets: [${options.alertmanagers.map((t) => `'${t}'`).join(', ')}]\n` : ''
}scrape_configs:
${
  options.sdUrl
    ? `  - job_name: opsdeck
    http_sd_configs:
      - url: ${options.sdUrl}
        refresh_interval: 1s
        authorization:
          type: Bearer
          credentials: ${options.token}
`
    : ''
}${options.scrapeConfigs ?? ''}${
  options.extraTargets?.length
    ? `  - job_name: static
    static_configs:
      - targets: [${options.extraTargets.map((t) => `'${t}'`).join(', ')}]
`
    : ''
}`;
  writeFileSync(join(dir, 'prometheus.yml'), config);
  const proc = run(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`,
    `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${options.port}`,
    '--log.level=warn',
    ...(options.args ?? []),
  ]);
  // Its TSDB lives in a temporary folder: gone with the process.
  const stop = async () => {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { ...proc, stop, dir, url: `http://127.0.0.1:${options.port}` };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
