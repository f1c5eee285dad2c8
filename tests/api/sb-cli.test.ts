import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeInstallToken } from '../../server/contract/agent';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * The served installer, run for real as a shell script against a real console, with every path
 * it writes moved into a temporary directory (SB_CLI_*), a PATH-stubbed apt-get, and the
 * supervised-process mode, so nothing on this machine outside the sandbox changes.
 */
const REAL_EXPORTER = '/usr/bin/prometheus-node-exporter';
const haveExporter = existsSync(REAL_EXPORTER);

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

interface RunResult {
  code: number;
  out: string;
}

describe('sb-cli (the Linux installer)', async () => {
  const [pglite] = await backends();
  let t: TestApp;
  let apiUrl: string;
  let admin: string;
  let script: string;
  let box: string;
  let scriptFile: string;

  const env = (extra: Record<string, string> = {}) => ({
    PATH: `${join(box, 'stub-bin')}:${process.env.PATH}`,
    HOME: box,
    SB_CLI_BIN_DIR: join(box, 'usr-local-bin'),
    SB_CLI_UNIT_DIR: join(box, 'systemd'),
    SB_CLI_STATE_DIR: join(box, 'state'),
    SB_CLI_RUN_DIR: join(box, 'run'),
    SB_CLI_LOG_FILE: join(box, 'log', 'node_exporter.log'),
    SB_CLI_EXPORTER_CANDIDATES: `${join(box, 'usr-local-bin', 'node_exporter')} ${join(box, 'pkg', 'prometheus-node-exporter')}`,
    SB_CLI_SUPERVISOR: 'process',
    SB_CLI_ALLOW_NONROOT: '1',
    SB_CLI_WAIT_SECONDS: '30',
    ...extra,
  });
  const sbCli = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
    new Promise((resolve) => {
      execFile('sh', [scriptFile, ...args], { env: env(extra), timeout: 90_000 }, (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
      });
    });
  /** As operators run it: the script on stdin (`curl … | sh -s -- install …`). */
  const sbCliPiped = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
    new Promise((resolve) => {
      const child = spawn('sh', ['-s', '--', ...args], { env: env(extra) });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('close', (code) => resolve({ code: code ?? 1, out }));
      child.stdin.end(script);
    });
  const server = async (agentPort: number) => {
    const res = await t.call('POST', '/api/servers', { cookie: admin, body: { hostname: `sbcli-${agentPort}`, ipaddress: '127.0.0.1', operating_system: 'linux', agentPort } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.result as { _id: string };
  };
  const keyFor = async (serverId: string) => {
    const res = await t.call('POST', '/api/cli/create_api_key', { cookie: admin, body: { privilages: ['CREATE', 'READ', 'UPDATE', 'DELETE'], serverId } });
    return res.body.data as { key: string; id: string };
  };
  const installed = async (id: string) => (await t.call('GET', `/api/servers/${id}`, { cookie: admin })).body.result.isAgentInstalled as boolean;
  const metrics = async (port: number) => {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(3000) });
      return res.ok && (await res.text()).includes('node_exporter_build_info');
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    t = await startTestApp(pglite!);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const u = await t.addUser({ role: 'admin' });
    admin = await t.signIn(u.email, u.password);
    script = (await t.app.inject({ method: 'GET', url: '/cli/0.0.2/sb-cli' })).body;
    box = mkdtempSync(join(tmpdir(), 'sb-cli-test-'));
    scriptFile = join(box, 'sb-cli');
    writeFileSync(scriptFile, script);
    // A stub apt-get: records its arguments and "installs" the package as a wrapper around the
    // machine's real exporter, so the package path runs without touching the system.
    mkdirSync(join(box, 'stub-bin'));
    mkdirSync(join(box, 'pkg'));
    writeFileSync(
      join(box, 'stub-bin', 'apt-get'),
      `#!/bin/sh\ncat >/dev/null\necho "$@" >>"${join(box, 'apt.log')}"\nprintf '#!/bin/sh\\nexec ${REAL_EXPORTER} "$@"\\n' >"${join(box, 'pkg', 'prometheus-node-exporter')}"\nchmod +x "${join(box, 'pkg', 'prometheus-node-exporter')}"\n`,
    );
    chmodSync(join(box, 'stub-bin', 'apt-get'), 0o755);
  }, 180_000);
  afterAll(async () => {
    // Whatever happened above, leave no exporter running.
    if (box) await sbCli(['uninstall']);
    await t?.close();
    if (box) rmSync(box, { recursive: true, force: true });
  }, 120_000);

  it('is valid POSIX sh', async () => {
    const res = await new Promise<RunResult>((resolve) => execFile('sh', ['-n', scriptFile], (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr })));
    expect(res).toEqual({ code: 0, out: '' });
    const dash = existsSync('/bin/dash') ? await new Promise<number>((resolve) => execFile('/bin/dash', ['-n', scriptFile], (e) => resolve(e ? 1 : 0))) : 0;
    expect(dash).toBe(0);
  });

  it('explains itself, and refuses a missing, broken or foreign token', async () => {
    expect((await sbCli([])).out).toMatch(/Usage:\s+sb-cli install <token>/);
    expect((await sbCli(['version'])).out.trim()).toBe('sb-cli 0.0.2');
    const unknown = await sbCli(['frobnicate']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.out).toMatch(/unknown command 'frobnicate'/);
    const missing = await sbCli(['install']);
    expect(missing.code).not.toBe(0);
    expect(missing.out).toMatch(/install token is missing/);
    const garbage = await sbCli(['install', 'not-a-token']);
    expect(garbage.code).not.toBe(0);
    expect(garbage.out).toMatch(/not a valid install token/);
    const s = await server(await freePort());
    const wrongKey = await sbCli(['install', encodeInstallToken({ apiUrl, serverId: s._id, key: `sbk_${'z'.repeat(43)}` })]);
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.out).toMatch(/the console refused the key \(401\): This API key is not valid/);
    const unreachable = await sbCli(['install', encodeInstallToken({ apiUrl: `http://127.0.0.1:${await freePort()}`, serverId: s._id, key: `sbk_${'z'.repeat(43)}` })]);
    expect(unreachable.out).toMatch(/cannot reach the console/);
    const k = await keyFor(s._id);
    await t.call('DELETE', `/api/cli/api_keys/${k.id}`, { cookie: admin });
    const revoked = await sbCli(['install', encodeInstallToken({ apiUrl, serverId: s._id, key: k.key })]);
    expect(revoked.code).not.toBe(0);
    expect(revoked.out).toMatch(/revoked/);
    expect(await installed(s._id)).toBe(false);
  });

  it('a dry run says what it would do and changes nothing', async () => {
    const port = await freePort();
    const s = await server(port);
    const k = await keyFor(s._id);
    const res = await sbCli(['install', encodeInstallToken({ apiUrl, serverId: s._id, key: k.key })], { SB_CLI_DRY_RUN: '1' });
    expect(res.code, res.out).toBe(0);
    expect(res.out).toContain(`the agent listens on port ${port}`);
    expect(res.out).toContain('would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y prometheus-node-exporter');
    expect(res.out).toMatch(/would run: nohup sh .*node_exporter-supervise\.sh/);
    expect(existsSync(join(box, 'apt.log'))).toBe(false);
    expect(existsSync(join(box, 'state'))).toBe(false);
    expect(existsSync(join(box, 'usr-local-bin'))).toBe(false);
    expect(await installed(s._id)).toBe(false);
  });

  it.skipIf(!haveExporter)('installs with the package manager, runs the exporter supervised, reports, is idempotent, and uninstalls', async () => {
    const port = await freePort();
    const s = await server(port);
    const k = await keyFor(s._id);
    const token = encodeInstallToken({ apiUrl, serverId: s._id, key: k.key });

    // Piped, with a package manager that reads stdin: it must not eat the rest of the script.
    const first = await sbCliPiped(['install', token]);
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('Installing the node exporter with apt-get (package prometheus-node-exporter)');
    expect(first.out).toContain('Starting the node exporter as a supervised background process');
    expect(first.out).toContain('Telling the console the agent is installed');
    expect(first.out).toMatch(/Done: the agent runs on port \d+/);
    expect(readFileSync(join(box, 'apt.log'), 'utf8').trim()).toBe('install -y prometheus-node-exporter');
    expect(await metrics(port)).toBe(true);
    expect(await installed(s._id)).toBe(true);

    // Killing the exporter: the supervisor starts it again.
    const child = Number(readFileSync(join(box, 'run', 'node_exporter.child.pid'), 'utf8'));
    process.kill(child, 'SIGKILL');
    await expect.poll(() => Number(readFileSync(join(box, 'run', 'node_exporter.child.pid'), 'utf8')), { timeout: 20_000 }).not.toBe(child);
    await expect.poll(() => metrics(port), { timeout: 20_000 }).toBe(true);

    const second = await sbCli(['install', token]);
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain('already running under its supervisor');
    expect(second.out).toContain('Everything was already in place; nothing changed.');
    expect(readFileSync(join(box, 'apt.log'), 'utf8').trim().split('\n')).toHaveLength(1);

    const status = await sbCli(['status']);
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain(`http://127.0.0.1:${port}/metrics answers`);

    const gone = await sbCli(['uninstall']);
    expect(gone.code, gone.out).toBe(0);
    expect(gone.out).toContain('Stopping the supervised node exporter');
    expect(gone.out).toMatch(/Removing .*usr-local-bin\/node_exporter/);
    await expect.poll(() => metrics(port), { timeout: 15_000 }).toBe(false);
    expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
    expect(existsSync(join(box, 'state'))).toBe(false);
    expect(existsSync(join(box, 'run', 'node_exporter.pid'))).toBe(false);
    const again = await sbCli(['uninstall']);
    expect(again.out).toContain('Nothing to remove');
  });
  it.skipIf(!haveExporter)('under systemd writes node_exporter.service, starts it, finds it in place next time, and uninstalls as SPEC instructs', async () => {
    // A stub systemctl over the sandbox: it keeps enabled/active state in files and "starts" a
    // unit by running its ExecStart line, so the unit the script writes is what actually runs.
    const sysd = join(box, 'sysd');
    mkdirSync(sysd, { recursive: true });
    writeFileSync(
      join(box, 'stub-bin', 'systemctl'),
      `#!/bin/sh
echo "$*" >>"${join(box, 'systemctl.log')}"
S="${sysd}"
q=
cmd=$1; shift
[ "$1" = --quiet ] && { q=1; shift; }
[ "$1" = --now ] && { now=1; shift; }
unit=$1
pidf="$S/$unit.pid"
running() { [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; }
stop() { running && kill "$(cat "$pidf")"; rm -f "$pidf"; }
case "$cmd" in
  is-enabled) [ -f "$S/$unit.enabled" ] ;;
  is-active) if running; then [ -n "$q" ] || echo active; else [ -n "$q" ] || echo inactive; exit 3; fi ;;
  enable) touch "$S/$unit.enabled" ;;
  disable) rm -f "$S/$unit.enabled"; [ -n "\${now:-}" ] && stop; true ;;
  daemon-reload) ;;
  cat) [ -f "$SB_CLI_UNIT_DIR/$unit.service" ] ;;
  stop) stop ;;
  restart|start)
    stop
    cmdline=$(sed -n 's/^ExecStart=//p' "$SB_CLI_UNIT_DIR/$unit.service")
    nohup setsid sh -c "exec $cmdline" </dev/null >/dev/null 2>&1 &
    echo $! >"$pidf" ;;
esac
`,
    );
    chmodSync(join(box, 'stub-bin', 'systemctl'), 0o755);
    const wrapper = join(box, 'pkg', 'prometheus-node-exporter');
    if (!existsSync(wrapper)) {
      writeFileSync(wrapper, `#!/bin/sh\nexec ${REAL_EXPORTER} "$@"\n`);
      chmodSync(wrapper, 0o755);
    }
    const systemd = { SB_CLI_SUPERVISOR: 'systemd' };
    const port = await freePort();
    const s = await server(port);
    const k = await keyFor(s._id);
    const token = encodeInstallToken({ apiUrl, serverId: s._id, key: k.key });
    const log = () => (existsSync(join(box, 'systemctl.log')) ? readFileSync(join(box, 'systemctl.log'), 'utf8').trim().split('\n') : []);
    try {
      const first = await sbCli(['install', token], systemd);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain(`found ${wrapper}`);
      expect(first.out).toMatch(/Writing the service file .*systemd\/node_exporter\.service/);
      const unit = readFileSync(join(box, 'systemd', 'node_exporter.service'), 'utf8');
      expect(unit).toContain(`ExecStart=${join(box, 'usr-local-bin', 'node_exporter')} --web.listen-address=:${port}`);
      expect(unit).toContain('Restart=always');
      expect(unit).toContain('WantedBy=multi-user.target');
      expect(log()).toEqual(['daemon-reload', 'is-enabled --quiet node_exporter', 'enable node_exporter', 'restart node_exporter']);
      expect(await metrics(port)).toBe(true);
      expect(await installed(s._id)).toBe(true);

      const second = await sbCli(['install', token], systemd);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toContain('is already in place');
      expect(second.out).toContain('node_exporter.service is already running');
      expect(second.out).toContain('Everything was already in place; nothing changed.');
      expect(log().filter((l) => l.startsWith('restart'))).toHaveLength(1);

      const before = log().length;
      const gone = await sbCli(['uninstall'], systemd);
      expect(gone.code, gone.out).toBe(0);
      // SPEC's Linux delete instructions, in their order (uninstall-steps.ts).
      expect(log().slice(before).filter((l) => !l.startsWith('cat'))).toEqual(['stop node_exporter', 'disable node_exporter', 'daemon-reload']);
      expect(gone.out.indexOf('rm -f ' + join(box, 'systemd', 'node_exporter.service'))).toBeLessThan(gone.out.indexOf('rm -f ' + join(box, 'usr-local-bin', 'node_exporter')));
      expect(gone.out.indexOf('rm -f ' + join(box, 'usr-local-bin', 'node_exporter'))).toBeLessThan(gone.out.indexOf('systemctl daemon-reload'));
      expect(existsSync(join(box, 'systemd', 'node_exporter.service'))).toBe(false);
      expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
      await expect.poll(() => metrics(port), { timeout: 15_000 }).toBe(false);
    } finally {
      // Never leave the stub's exporter behind.
      const pidf = join(sysd, 'node_exporter.pid');
      if (existsSync(pidf)) {
        try {
          process.kill(Number(readFileSync(pidf, 'utf8')));
        } catch {
          // already gone
        }
      }
      rmSync(join(box, 'stub-bin', 'systemctl'), { force: true });
    }
  });
});
