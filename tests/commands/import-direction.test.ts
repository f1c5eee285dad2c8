import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Imports run one way (docs/architecture.md): src/app → commands → server/contract. The server
// never reaches into the registry or the web app, commands never into the app's host, and the
// kit below the screens (components, lib, api) never into the app.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|mts|cts)$/.test(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Every module a file names (static, type-only, re-exports, dynamic imports), resolved to a path from the root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith('.')).map((s) => relative(root, resolve(root, dirname(file), s)));
}

function crossings(dirs: string[], forbidden: string[]): string[] {
  return dirs.flatMap((dir) =>
    sources(dir).flatMap((file) => importsOf(file).filter((target) => forbidden.some((f) => target === f || target.startsWith(`${f}/`))).map((target) => `${file} → ${target}`)),
  );
}

describe('import direction', () => {
  it('finds the files it checks', () => {
    expect(sources('server').length).toBeGreaterThan(100);
    expect(sources('commands').length).toBeGreaterThan(100);
    expect(importsOf('server/audit/display.ts')).toContain('server/contract/display-line');
  });

  it('no file under server/ imports from commands/ or src/', () => {
    expect(crossings(['server'], ['commands', 'src'])).toEqual([]);
  });

  it('no file under commands/ imports from src/app', () => {
    expect(crossings(['commands'], ['src/app'])).toEqual([]);
  });

  // STYLE rule 6: ui, lib and api sit below the screens and the app; the command host provides
  // the runner they use, it is not imported by them.
  it('no file under src/components, src/lib or src/api imports from src/app', () => {
    expect(sources('src/components/ui').length).toBeGreaterThan(40);
    expect(crossings(['src/components', 'src/lib', 'src/api'], ['src/app'])).toEqual([]);
  });
});
