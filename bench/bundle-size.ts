/**
 * Initial JavaScript of the sign-in page: every .js file Chromium loads for /login (entry,
 * preloads and the lazily loaded route chunk): the bytes on the wire as the server sends them
 * (compression on: Chromium takes brotli), and each file gzipped at level 9 for comparison.
 * Target (issue 2, issue 11 §6): ≤ 150 KB on the wire.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openBrowser } from '../tests/e2e/browser';
import { startServer } from '../tests/e2e/server-process';

export async function runBundleSizeBench(): Promise<{ files: { file: string; gzipBytes: number; wireBytes: number; encoding: string }[]; totalGzipKB: number; totalWireKB: number }> {
  const server = await startServer();
  const browser = await openBrowser(server.url);
  try {
    const scripts = new Map<string, Promise<{ wireBytes: number; encoding: string }>>();
    browser.page.on('requestfinished', (req) => {
      const url = new URL(req.url());
      if (!url.pathname.endsWith('.js')) return;
      scripts.set(
        url.pathname,
        (async () => {
          const [sizes, res] = await Promise.all([req.sizes(), req.response()]);
          return { wireBytes: sizes.responseBodySize, encoding: (await res?.allHeaders())?.['content-encoding'] ?? 'identity' };
        })(),
      );
    });
    await browser.page.goto('/login', { waitUntil: 'networkidle' });
    // The form comes from a lazily loaded chunk after the entry runs and whoami answers; on a busy
    // machine that can be after the first quiet 500 ms, so wait for the form itself, then for quiet.
    await browser.page.getByRole('button', { name: /sign in/i }).waitFor({ timeout: 60_000 });
    await browser.page.waitForLoadState('networkidle');
    const files = await Promise.all([...scripts].map(async ([p, wire]) => ({ file: p, gzipBytes: gzipSync(readFileSync(join('dist', p)), { level: 9 }).length, ...(await wire) })));
    const kb = (n: number) => Math.round((n / 1024) * 10) / 10;
    return { files, totalGzipKB: kb(files.reduce((s, f) => s + f.gzipBytes, 0)), totalWireKB: kb(files.reduce((s, f) => s + f.wireBytes, 0)) };
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runBundleSizeBench();
  for (const f of r.files) console.log(`${(f.wireBytes / 1024).toFixed(1).padStart(8)} KB ${f.encoding.padEnd(8)} ${(f.gzipBytes / 1024).toFixed(1).padStart(8)} KB gzip-9  ${f.file}`);
  console.log(`sign-in page initial JS: ${r.totalWireKB} KB on the wire, ${r.totalGzipKB} KB gzip-9 (target ≤ 150 KB on the wire)`);
}
