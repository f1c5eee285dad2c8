import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { constants as zlib } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Hashed build output (Vite's `assets/name-HASH.ext`): its name changes whenever its content does. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else the UI serves (index.html): the browser revalidates it on every load (ETag). */
export const REVALIDATE = 'no-cache';

/**
 * `'sha256-…'` sources for the inline scripts of the built index.html (the colour-mode script that
 * runs before first paint), so script-src needs neither 'unsafe-inline' nor a second request.
 */
export function inlineScriptHashes(indexHtml: string): string[] {
  const hashes: string[] = [];
  for (const m of indexHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!) || !m[2]!.trim()) continue;
    hashes.push(`'sha256-${createHash('sha256').update(m[2]!, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * Content-Security-Policy directives: exactly what the built console uses (docs/decisions.md).
 * Inline styles are allowed because react-remove-scroll (the palette's dialog) adds a <style>
 * element and libraries set style attributes; scripts, frames and connections are not loosened.
 */
export function cspDirectives(options: { grafanaUrl?: string; scriptHashes: string[] }): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...options.scriptHashes],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // data: for the grid's resize handle (an SVG in react-resizable's CSS).
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    // Grafana panels are embedded when GRAFANA_URL is set; nothing else is framed.
    'frame-src': options.grafanaUrl ? [new URL(options.grafanaUrl).origin] : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
  };
}

/**
 * Security headers (helmet) and compression (brotli, gzip) for every response. Registered before
 * any route so each one gets them.
 */
export async function installHttpHygiene(app: FastifyInstance, options: { uiDir?: string; grafanaUrl?: string; publicUrl?: string }): Promise<void> {
  const indexHtml = options.uiDir && existsSync(join(options.uiDir, 'index.html')) ? readFileSync(join(options.uiDir, 'index.html'), 'utf8') : '';
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives({ grafanaUrl: options.grafanaUrl, scriptHashes: inlineScriptHashes(indexHtml) }) },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // HSTS only where the console is known to be reached over TLS: on plain HTTP a browser ignores
    // it, and sent by mistake behind a TLS proxy it would pin a name for a year.
    strictTransportSecurity: options.publicUrl?.startsWith('https://') ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  });
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Quality 4: near gzip's speed with a better ratio, for JSON made per request. The UI's files
    // are compressed once at build time at full quality (scripts/build.ts) and sent as they are.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}

/** @fastify/static's setHeaders: year-long immutable caching for hashed assets, revalidation for the rest. */
export function uiCacheHeaders(uiDir: string) {
  return (reply: { header(name: string, value: string): unknown }, path: string): void => {
    const rel = relative(uiDir, path);
    reply.header('cache-control', rel.startsWith(`assets${sep}`) ? IMMUTABLE : REVALIDATE);
  };
}
