import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The shape issue 26 set, held: routes only route (no database schema, no hand-written parsing),
 * and the web client reaches the API by endpoint name only (no path strings of its own).
 */
const root = join(import.meta.dirname, '..', '..');
const files = (dir: string) =>
  readdirSync(join(root, dir))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => ({ name: `${dir}/${f}`, text: readFileSync(join(root, dir, f), 'utf8') }));

describe('route files', () => {
  const routes = files('server/routes');
  it('import no database schema and no query builder', () => {
    expect(routes.length).toBeGreaterThan(20);
    // The generic resource names a def's table and columns by type only.
    const offenders = routes.filter((f) => /from '\.\.\/db\/schema'|^import (?!type )[^;]*from 'drizzle-orm/m.test(f.text)).map((f) => f.name);
    expect(offenders).toEqual([]);
  });
  it('parse no input by hand: the declaration parses it', () => {
    expect(routes.filter((f) => /\.safeParse\(|\.parse\(request\./.test(f.text)).map((f) => f.name)).toEqual([]);
  });
  it('register through their declarations', () => {
    const offenders = routes.filter((f) => /\bapp\.(get|post|put|patch|delete|route)\(/.test(f.text)).map((f) => f.name);
    expect(offenders).toEqual([]);
  });
});

describe('the web client', () => {
  it('calls endpoints by name, with no path strings of its own', () => {
    const api = files('src/api').filter((f) => !/\/(client|call)\.ts$/.test(f.name));
    expect(api.length).toBeGreaterThan(15);
    const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').replace(/'(text|application)\/[a-z-]+'/g, '');
    const offenders = api.filter((f) => /\bapi\.(get|post|put|patch|delete)\s*[<(]|[`'"]\/?(?:api\/)?[a-z-]+\/[a-z-:${]/.test(code(f.text))).map((f) => f.name);
    expect(offenders).toEqual([]);
  });
});
