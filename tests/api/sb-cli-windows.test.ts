import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The Windows installer cannot run here (no Windows host, no PowerShell in CI): its text is
// checked for what issue 12 asks of it — a pinned, checksum-verified MSI, the collectors the
// console reads, and the port checks — in the order they must happen.
const ps1 = readFileSync('server/agent/sb-cli.ps1', 'utf8');
const at = (needle: string | RegExp) => {
  const i = typeof needle === 'string' ? ps1.indexOf(needle) : ps1.search(needle);
  expect(i, String(needle)).toBeGreaterThanOrEqual(0);
  return i;
};
const collectors = /^\$Collectors = '([a-z_,]+)'$/m.exec(ps1)?.[1]?.split(',') ?? [];

describe('sb-cli.ps1 (the Windows installer)', () => {
  it('pins the windows_exporter version and the MSI SHA-256, and checks it before msiexec runs', () => {
    expect(ps1).toMatch(/^\$ExporterVersion = '0\.2\d\.\d+'$/m);
    expect(ps1).toMatch(/^\$MsiSha256 = @\{ amd64 = '[0-9A-F]{64}' \}$/m);
    expect(ps1).not.toMatch(/param\([^)]*ExporterVersion/s);
    const download = at('Invoke-WebRequest -Uri $url -OutFile $msi');
    const hash = at('(Get-FileHash -Path $msi -Algorithm SHA256).Hash');
    const refuse = at(/if \(\$hash -ne \$MsiSha256\[\$Arch\]\) \{\s+Remove-Item -Force \$msi\s+Fail /);
    const msiexec = at('Start-Process msiexec.exe');
    expect(download).toBeLessThan(hash);
    expect(hash).toBeLessThan(refuse);
    expect(refuse).toBeLessThan(msiexec);
    // No checksum, no download: other architectures are refused with what to do instead.
    expect(at("if (-not $MsiSha256.ContainsKey($Arch))")).toBeLessThan(download);
  });

  it('enables every collector whose metrics the console reads (server/monitoring/windows.ts)', () => {
    const reader = readFileSync('server/monitoring/windows.ts', 'utf8');
    const collectorOf = (metric: string) => {
      const first = metric.split('_')[1]!;
      return first === 'logical' || first === 'physical' ? `${first}_disk` : first;
    };
    // A figure read under several names (exporter versions) needs one of their collectors.
    const groups = [...reader.matchAll(/\[((?:'windows_\w+',?\s*)+)\]/g)].map((m) => [...m[1]!.matchAll(/'(windows_\w+)'/g)].map((n) => n[1]!));
    const grouped = new Set(groups.flat());
    const single = [...reader.matchAll(/'(windows_\w+)'/g)].map((m) => m[1]!).filter((n) => !grouped.has(n));
    expect(single.length + groups.length).toBeGreaterThan(10);
    for (const name of single) expect(collectors, name).toContain(collectorOf(name));
    for (const names of groups) expect(names.some((n) => collectors.includes(collectorOf(n))), names.join(' | ')).toBe(true);
    for (const c of ['memory', 'process', 'time']) expect(collectors).toContain(c);
    expect(ps1).toContain('"ENABLED_COLLECTORS=$Collectors"');
  });

  it('refuses a port held by another process before installing, and checks who answers after', () => {
    const check = at('$holder = Port-Holder $Port\nif ($holder -and $holder.Id -ne (Service-Pid))');
    expect(ps1.slice(check)).toMatch(/^[^\n]*\n\s+Fail "port \$Port is already in use by \$\(\$holder\.Name\) \(pid \$\(\$holder\.Id\)\)/m);
    expect(check).toBeLessThan(at('Invoke-WebRequest -Uri $url'));
    expect(at('Get-NetTCPConnection -LocalPort $p -State Listen')).toBeLessThan(check);
    const answers = at('windows_exporter_build_info');
    expect(answers).toBeLessThan(at('not the $Service service (pid $servicePid)'));
  });

  it('has balanced braces and parentheses (a truncated or mangled script would not)', () => {
    const count = (c: string) => ps1.split(c).length - 1;
    expect(count('{')).toBe(count('}'));
    expect(count('(')).toBe(count(')'));
  });
});
