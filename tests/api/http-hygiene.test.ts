import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { testConfig } from '../../server/config';
import { backends, startTestApp, type TestApp } from './harness';

/**
 * Security headers, compression and caching (issue 11 part 6) on a built UI of our own: an
 * index.html with an inline script, hashed assets with and without the build's .br/.gz copies.
 * One backend: nothing here reads the database beyond a user list (the same code on both).
 */
// PostgreSQL when it is there: a new database there is quicker than a PGlite initdb on a busy machine.
const backend = (await backends()).at(-1);

const INLINE = "\n      document.documentElement.dataset.mode = 'x';\n    ";
const INDEX = `<!doctype html><html><head><title>Opsdeck</title><script>${INLINE}</script><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${' '.repeat(10)}</body></html>`;
// Big enough to be worth compressing (threshold 1 KB), varied enough to tell copies apart.
const BUNDLE = Array.from({ length: 400 }, (_, i) => `export const v${i} = ${i} * 7;`).join('\n');
const OTHER = Array.from({ length: 300 }, (_, i) => `.c${i}{color:#${(i * 4099).toString(16).padStart(6, '0').slice(0, 6)}}`).join('\n');

describe(`HTTP hygiene on ${backend!.name}`, () => {
  let uiDir: string;
  let t: TestApp;
  let withGrafana: FastifyInstance;
  beforeAll(async () => {
    uiDir = mkdtempSync(join(tmpdir(), 'opsdeck-ui-'));
    mkdirSync(join(uiDir, 'assets'));
    writeFileSync(join(uiDir, 'index.html'), INDEX);
    writeFileSync(join(uiDir, 'assets', 'index-AbC123.js'), BUNDLE);
    // The build's copies: marked so the test can tell they were sent as they are.
    writeFileSync(join(uiDir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(`${BUNDLE}\n// from .br`));
    writeFileSync(join(uiDir, 'assets', 'index-AbC123.js.gz'), gzipSync(`${BUNDLE}\n// from .gz`));
    writeFileSync(join(uiDir, 'assets', 'index-DeF456.css'), OTHER);
    t = await startTestApp(backend!, { uiDir });
    withGrafana = await buildApp(testConfig({ uiDir, monitoring: { ...testConfig().monitoring, grafanaUrl: 'https://grafana.example.com:3443/sub' } }), { database: t.database });
    await withGrafana.ready();
  });
  afterAll(async () => {
    await withGrafana?.close();
    await t?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}, app: FastifyInstance = t.app) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
  const csp = (h: Record<string, unknown>) => Object.fromEntries(String(h['content-security-policy']).split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

  it('sends a CSP that allows the page its own inline script by hash, and nothing foreign', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    const hash = `'sha256-${createHash('sha256').update(INLINE).digest('base64')}'`;
    expect(csp(res.headers)).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'", hash],
      'script-src-attr': ["'none'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:'],
      'font-src': ["'self'"],
      'connect-src': ["'self'"],
      'frame-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'self'"],
    });
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    // HSTS only when PUBLIC_URL says https.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('allows framing of GRAFANA_URL (its origin) and nothing else', async () => {
    const res = await get('/servers', {}, withGrafana);
    expect(csp(res.headers)['frame-src']).toEqual(['https://grafana.example.com:3443']);
    expect(csp(res.headers)['frame-ancestors']).toEqual(["'none'"]);
  });

  it('puts the same headers on API answers and errors', async () => {
    for (const url of ['/api/health', '/api/auth/whoami', '/api/nothing']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(csp(res.headers)['frame-ancestors']).toEqual(["'none'"]);
    }
  });

  it('caches hashed assets for a year as immutable and makes index.html revalidate', async () => {
    expect((await get('/assets/index-AbC123.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/index-DeF456.css')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/servers/123', '/login']) {
      const res = await get(url);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.etag).toBeTruthy();
      // Revalidation answers 304 while the file is unchanged.
      expect((await get(url, { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(304);
    }
  });

  it("sends the build's brotli or gzip copy as the browser accepts, and the file itself otherwise", async () => {
    const br = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', 'content-type': expect.stringMatching(/javascript/), vary: expect.stringMatching(/accept-encoding/i) });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${BUNDLE}\n// from .br`);
    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${BUNDLE}\n// from .gz`);
    const plain = await get('/assets/index-AbC123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BUNDLE);
  });

  it('compresses files without build copies, and JSON, on the fly', async () => {
    const css = await get('/assets/index-DeF456.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(css.rawPayload).toString()).toBe(OTHER);
    const admin = await t.addUser({ role: 'admin' });
    for (let i = 0; i < 15; i++) await t.addUser({ role: 'user' });
    const cookie = await t.signIn(admin.email, admin.password);
    const list = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/api/users/all', headers: { cookie, 'x-requested-with': 'opsdeck', 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ pageSize: 100 }) });
    const plain = await list({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(2000);
    const br = await list({ 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await list({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
    // Small answers are not worth it.
    expect((await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } })).headers['content-encoding']).toBeUndefined();
  });

  it('sends HSTS when PUBLIC_URL is https, and logs the client TRUST_PROXY names', async () => {
    const lines: string[] = [];
    const app = await buildApp(testConfig({ publicUrl: 'https://ops.example.com', logLevel: 'info', trustProxy: ['10.0.0.0/8'] }), { database: t.database, logStream: { write: (l) => void lines.push(l) } });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '192.0.2.44' } });
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      const logged = lines.map((l) => JSON.parse(l) as { req?: { remoteAddress?: string } }).find((l) => l.req);
      expect(logged?.req?.remoteAddress).toBe('192.0.2.44');
    } finally {
      await app.close();
    }
  });
});
