import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  /**
   * A stub systemctl over the sandbox: enabled/active state in files; starting a unit runs its
   * ExecStart (the last one of the unit file and its drop-ins, as systemd reads them) with the
   * variables of its EnvironmentFile, so the units and drop-ins the script writes are what runs.
   */
  const stubSystemctl = () => {
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
[ "$1" = -p ] && shift 2
unit=\${1%.service}
pidf="$S/$unit.pid"
files() { for f in "$SB_CLI_UNIT_DIR/$unit.service" "$SB_CLI_UNIT_DIR/$unit.service.d"/*.conf; do [ -f "$f" ] && cat "$f"; done; }
running() { [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; }
stop() { if running; then kill "$(cat "$pidf")"; while running; do sleep 0.1; done; fi; rm -f "$pidf"; }
case "$cmd" in
  is-enabled) [ -f "$S/$unit.enabled" ] ;;
  is-active) if running; then [ -n "$q" ] || echo active; else [ -n "$q" ] || echo inactive; exit 3; fi ;;
  enable) touch "$S/$unit.enabled" ;;
  disable) rm -f "$S/$unit.enabled"; [ -n "\${now:-}" ] && stop; true ;;
  daemon-reload) ;;
  cat) [ -f "$SB_CLI_UNIT_DIR/$unit.service" ] ;;
  show) if running; then echo "MainPID=$(cat "$pidf")"; else echo MainPID=0; fi ;;
  stop) stop ;;
  restart|start)
    stop
    cmdline=$(files | sed -n 's/^ExecStart=//p' | tail -n 1)
    envf=$(files | sed -n 's/^EnvironmentFile=-\\{0,1\\}//p' | tail -n 1)
    (set -a; [ -n "$envf" ] && [ -f "$envf" ] && . "$envf"; set +a; nohup setsid sh -c "exec $cmdline" </dev/null >/dev/null 2>&1 & echo $! >"$pidf") ;;
esac
`,
    );
    chmodSync(join(box, 'stub-bin', 'systemctl'), 0o755);
    const log = () => (existsSync(join(box, 'systemctl.log')) ? readFileSync(join(box, 'systemctl.log'), 'utf8').trim().split('\n') : []);
    const run = (args: string[]) => new Promise<void>((resolve) => execFile(join(box, 'stub-bin', 'systemctl'), args, { env: env() }, () => resolve()));
    return {
      log,
      run,
      /** Never leave a stub-started exporter behind. */
      cleanup() {
        for (const f of existsSync(sysd) ? readdirSync(sysd).filter((n) => n.endsWith('.pid')) : []) {
          try {
            process.kill(Number(readFileSync(join(sysd, f), 'utf8')));
          } catch {
            // already gone
          }
        }
        rmSync(sysd, { recursive: true, force: true });
        rmSync(join(box, 'stub-bin', 'systemctl'), { force: true });
        rmSync(join(box, 'systemctl.log'), { force: true });
      },
    };
  };
  const listenOn = async (port: number) => {
    const srv = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => srv.listen(port, '0.0.0.0', resolve));
    return srv;
  };
  /** An executable script in the sandbox. */
  const script_ = (path: string, text: string) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
    chmodSync(path, 0o755);
    return path;
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
    expect(res.out).toContain('would run: env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends prometheus-node-exporter');
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
    expect(first.out).toContain('Installing the node exporter with apt-get (package prometheus-node-exporter, without recommended packages)');
    expect(first.out).toContain('Starting the node exporter as a supervised background process');
    expect(first.out).toContain('Telling the console the agent is installed');
    expect(first.out).toMatch(/Done: the agent runs on port \d+/);
    expect(readFileSync(join(box, 'apt.log'), 'utf8').trim()).toBe('install -y --no-install-recommends prometheus-node-exporter');
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
    const sysd = stubSystemctl();
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
    const log = sysd.log;
    try {
      const first = await sbCli(['install', token], systemd);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain(`found ${wrapper}`);
      expect(first.out).toMatch(/Writing the service file .*systemd\/node_exporter\.service/);
      const unit = readFileSync(join(box, 'systemd', 'node_exporter.service'), 'utf8');
      expect(unit).toContain(`ExecStart=${join(box, 'usr-local-bin', 'node_exporter')} --web.listen-address=:${port} --collector.systemd`);
      expect(unit).toContain('Restart=always');
      expect(unit).toContain('WantedBy=multi-user.target');
      expect(log().filter((l) => !l.startsWith('show') && !l.startsWith('cat'))).toEqual(['daemon-reload', 'is-enabled --quiet node_exporter', 'enable node_exporter', 'restart node_exporter']);
      expect(await metrics(port)).toBe(true);
      expect(first.out).toMatch(/it is the exporter sb-cli started \(pid \d+\)/);
      // Here systemd is a stub: the collector is on, and says it cannot reach systemd.
      expect(first.out).toContain('the systemd collector is on but failing');
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
      expect(log().slice(before).filter((l) => !l.startsWith('cat') && !l.startsWith('show'))).toEqual(['stop node_exporter', 'disable node_exporter', 'daemon-reload']);
      expect(gone.out.indexOf('rm -f ' + join(box, 'systemd', 'node_exporter.service'))).toBeLessThan(gone.out.indexOf('rm -f ' + join(box, 'usr-local-bin', 'node_exporter')));
      expect(gone.out.indexOf('rm -f ' + join(box, 'usr-local-bin', 'node_exporter'))).toBeLessThan(gone.out.indexOf('systemctl daemon-reload'));
      expect(existsSync(join(box, 'systemd', 'node_exporter.service'))).toBe(false);
      expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
      await expect.poll(() => metrics(port), { timeout: 15_000 }).toBe(false);
    } finally {
      sysd.cleanup();
    }
  });

  it('refuses, changing nothing, when another process holds the agent port, and names it (ss and /proc)', async () => {
    const port = await freePort();
    const s = await server(port);
    const k = await keyFor(s._id);
    const token = encodeInstallToken({ apiUrl, serverId: s._id, key: k.key });
    const blocker = await listenOn(port);
    const aptBefore = existsSync(join(box, 'apt.log')) ? readFileSync(join(box, 'apt.log'), 'utf8') : '';
    try {
      for (const lookup of ['ss', 'proc']) {
        const res = await sbCli(['install', token], { SB_CLI_PORT_LOOKUP: lookup, SB_CLI_EXPORTER_CANDIDATES: join(box, 'none') });
        expect(res.code, `${lookup}: ${res.out}`).not.toBe(0);
        expect(res.out).toMatch(new RegExp(`port ${port} is already in use by \\S.* \\(pid ${process.pid}\\)\\..*Nothing was changed\\.`));
        expect(res.out).not.toContain('Installing the node exporter');
      }
    } finally {
      await new Promise((r) => blocker.close(r));
    }
    expect(existsSync(join(box, 'state'))).toBe(false);
    expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
    expect(existsSync(join(box, 'apt.log')) ? readFileSync(join(box, 'apt.log'), 'utf8') : '').toBe(aptBefore);
    expect(await installed(s._id)).toBe(false);
  });

  it('installs without weak dependencies on dnf and yum', async () => {
    const s = await server(await freePort());
    const k = await keyFor(s._id);
    const token = encodeInstallToken({ apiUrl, serverId: s._id, key: k.key });
    for (const pm of ['dnf', 'yum']) {
      const res = await sbCli(['install', token], { SB_CLI_DRY_RUN: '1', SB_CLI_PACKAGE_MANAGER: pm, SB_CLI_EXPORTER_CANDIDATES: join(box, 'none') });
      expect(res.code, res.out).toBe(0);
      expect(res.out).toContain(`would run: ${pm} install -y --setopt=install_weak_deps=False golang-github-prometheus-node-exporter`);
    }
  });

  it.skipIf(!haveExporter)('stops when the exporter answering is not the one it started', async () => {
    // An "exporter" that hands the port to a detached process: the supervisor's child is not
    // what answers on the port.
    const port = await freePort();
    const stray = join(box, 'stray.pid');
    const wrapper = script_(join(box, 'detaching', 'node_exporter'), `#!/bin/sh\n${REAL_EXPORTER} "$@" </dev/null >/dev/null 2>&1 &\necho $! >"${stray}"\nexec sleep 600\n`);
    const s = await server(port);
    const k = await keyFor(s._id);
    try {
      const res = await sbCli(['install', encodeInstallToken({ apiUrl, serverId: s._id, key: k.key })], { SB_CLI_EXPORTER_CANDIDATES: wrapper });
      expect(res.code, res.out).not.toBe(0);
      const strayPid = readFileSync(stray, 'utf8').trim();
      expect(res.out).toMatch(new RegExp(`port ${port} answers, but from \\S+ \\(pid ${strayPid}\\).*not the exporter sb-cli started \\(pid \\d+\\)`));
      expect(await installed(s._id)).toBe(false);
    } finally {
      try {
        process.kill(Number(readFileSync(stray, 'utf8')));
      } catch {
        // not started
      }
      await sbCli(['uninstall'], { SB_CLI_EXPORTER_CANDIDATES: wrapper });
    }
    expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
  });

  it.skipIf(!haveExporter)('reuses a distribution exporter service that holds the agent port, with the systemd collector, and puts it back on uninstall', async () => {
    const sysd = stubSystemctl();
    const port = await freePort();
    // Debian's package as it comes: its own unit, its settings file (ARGS), its binary listening
    // on its default port unless told otherwise (9100 there; this test's free port here).
    const binary = script_(
      join(box, 'deb', 'prometheus-node-exporter'),
      `#!/bin/sh\ncase " $* " in *" --web.listen-address="*) exec ${REAL_EXPORTER} "$@" ;; esac\nexec ${REAL_EXPORTER} --web.listen-address=:${port} "$@"\n`,
    );
    const defaults = join(box, 'deb', 'defaults');
    writeFileSync(defaults, 'ARGS=""\n');
    mkdirSync(join(box, 'systemd'), { recursive: true });
    const pkgUnit = join(box, 'systemd', 'prometheus-node-exporter.service');
    writeFileSync(pkgUnit, `[Service]\nEnvironmentFile=${defaults}\nExecStart=${binary} $ARGS\n`);
    const deb = { SB_CLI_SUPERVISOR: 'systemd', SB_CLI_EXPORTER_CANDIDATES: binary, SB_CLI_PACKAGE_DEFAULTS: defaults };
    const dropin = join(box, 'systemd', 'prometheus-node-exporter.service.d', 'opsdeck-agent.conf');
    const s = await server(port);
    const k = await keyFor(s._id);
    const token = encodeInstallToken({ apiUrl, serverId: s._id, key: k.key });
    // The running exporter's own command line (Debian's build has the systemd collector on by
    // default, upstream's and Fedora's off: the flag is what the agent guarantees).
    const commandLine = () => readFileSync(`/proc/${readFileSync(join(box, 'sysd', 'prometheus-node-exporter.pid'), 'utf8').trim()}/cmdline`, 'utf8').split('\0');
    try {
      await sysd.run(['enable', 'prometheus-node-exporter']);
      await sysd.run(['start', 'prometheus-node-exporter']);
      await expect.poll(() => metrics(port), { timeout: 15_000 }).toBe(true);
      const before = Number(readFileSync(join(box, 'sysd', 'prometheus-node-exporter.pid'), 'utf8'));

      // Its settings may not carry the flags the agent sets: refused before anything changes.
      writeFileSync(defaults, 'ARGS="--web.listen-address=:9100"\n');
      const clash = await sbCli(['install', token], deb);
      expect(clash.code).not.toBe(0);
      expect(clash.out).toContain(`${defaults} sets ARGS="--web.listen-address=:9100"`);
      expect(existsSync(dropin)).toBe(false);
      expect(existsSync(join(box, 'usr-local-bin', 'node_exporter'))).toBe(false);
      writeFileSync(defaults, 'ARGS=""\n');

      const first = await sbCli(['install', token], deb);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain(`port ${port} is held by the distribution's prometheus-node-exporter.service (pid ${before}): the agent will reuse it`);
      expect(first.out).toContain("Reusing the distribution's prometheus-node-exporter.service as the agent instead of adding a second exporter");
      expect(readFileSync(dropin, 'utf8')).toContain(`ExecStart=\nExecStart=${binary} $ARGS --web.listen-address=:${port} --collector.systemd`);
      expect(existsSync(join(box, 'systemd', 'node_exporter.service'))).toBe(false);
      const agent = Number(readFileSync(join(box, 'sysd', 'prometheus-node-exporter.pid'), 'utf8'));
      expect(first.out).toContain(`it is the exporter sb-cli started (pid ${agent})`);
      expect(await metrics(port)).toBe(true);
      expect(commandLine()).toEqual(expect.arrayContaining([`--web.listen-address=:${port}`, '--collector.systemd']));
      expect(await installed(s._id)).toBe(true);

      const second = await sbCli(['install', token], deb);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toContain('already runs the agent');
      expect(second.out).toContain('Everything was already in place; nothing changed.');

      const gone = await sbCli(['uninstall'], deb);
      expect(gone.code, gone.out).toBe(0);
      expect(gone.out).toContain('Removing the agent\'s settings from prometheus-node-exporter.service');
      expect(existsSync(dropin)).toBe(false);
      // As it was: running on its own settings (not the agent's flags), still enabled.
      await expect.poll(() => metrics(port), { timeout: 15_000 }).toBe(true);
      expect(commandLine()).not.toContain('--collector.systemd');
      expect(existsSync(join(box, 'sysd', 'prometheus-node-exporter.enabled'))).toBe(true);
      expect(existsSync(join(box, 'state'))).toBe(false);
    } finally {
      sysd.cleanup();
      rmSync(pkgUnit, { force: true });
    }
  });
});
