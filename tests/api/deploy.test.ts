import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 12 part 9: the deployment files are derived from the path CI runs (the packed package
// and its `opsdeck` binary, tests/e2e/package.e2e.test.ts). What can be checked without a
// container daemon or systemd as PID 1 is checked here; README "Running in production" says
// what has never run.
const have = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'opsdeck-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deploy/opsdeck.service', () => {
  it.skipIf(!have('systemd-analyze'))('passes systemd-analyze verify without a warning (ExecStart pointed at this checkout\'s binary)', () => {
    const unit = readFileSync('deploy/opsdeck.service', 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/local\/bin\/opsdeck start$/m);
    const file = join(dir, 'opsdeck.service');
    writeFileSync(file, unit.replace(/^ExecStart=\/usr\/local\/bin\/opsdeck/m, `ExecStart=${resolve('bin/opsdeck.js')}`));
    const res = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
    expect(res.status).toBe(0);
  });
});

describe('deploy/prometheus/prometheus.yml (compose)', () => {
  it.skipIf(!have('promtool'))('is a valid Prometheus configuration with the job the Grafana embeds filter on', () => {
    const res = spawnSync('promtool', ['check', 'config', '--syntax-only', 'deploy/prometheus/prometheus.yml'], { encoding: 'utf8' });
    expect(`${res.stdout}${res.stderr}`).toContain('SUCCESS');
    expect(res.status).toBe(0);
    expect(readFileSync('deploy/prometheus/prometheus.yml', 'utf8')).toMatch(/job_name: opsdeck\b/);
  });
});

describe('Dockerfile', () => {
  it('installs the packed tarball with production dependencies only and runs the opsdeck binary, as the package test does', () => {
    const text = readFileSync('Dockerfile', 'utf8');
    expect(text).toContain('RUN npm pack --pack-destination /tmp');
    expect(text).toMatch(/npm install --global --omit=dev .*\/tmp\/opsdeck\.tgz/);
    expect(text).toContain('CMD ["opsdeck", "start"]');
  });
});
