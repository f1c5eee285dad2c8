/**
 * Initial JavaScript of the sign-in page: every .js file Chromium loads for /login (entry,
 * preloads and the lazily loaded route chunk), gzipped at level 9 as a server would serve it.
 * Target (issue 2): ≤ 150 KB gzip.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openBrowser } from '../tests/e2e/browser';
import { startServer } from '../tests/e2e/server-process';

export async function runBundleSizeBench(): Promise<{ files: { file: string; gzipBytes: number }[]; totalGzipKB: number }> {
  const server = await startServer();
  const browser = await openBrowser(server.url);
  try {
    const scripts = new Set<string>();
    browser.page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await browser.page.goto('/login', { waitUntil: 'networkidle' });
    const files = [...scripts].map((p) => ({ file: p, gzipBytes: gzipSync(readFileSync(join('dist', p)), { level: 9 }).length }));
    const total = files.reduce((s, f) => s + f.gzipBytes, 0);
    return { files, totalGzipKB: Math.round((total / 1024) * 10) / 10 };
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await runBundleSizeBench();
  for (const f of r.files) console.log(`${(f.gzipBytes / 1024).toFixed(1).padStart(8)} KB  ${f.file}`);
  console.log(`sign-in page initial JS: ${r.totalGzipKB} KB gzip (target ≤ 150 KB)`);
}
