import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Opsdeck's package.json: the source checkout, or the installed package.
 * Found by walking up from this module, so the same code works from `server/` (tsx, tests) and
 * from the compiled bundle in `build/server/` (npm start, the `opsdeck` binary), from any cwd.
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'opsdeck') return dir;
    if (dirname(dir) === dir) throw new Error(`Opsdeck's package.json was not found above ${from}`);
  }
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Files the server reads at run time; `npm pack` ships them at these same paths (package.json "files"). */
export const paths = {
  migrations: join(packageRoot, 'server', 'db', 'migrations'),
  agentScripts: join(packageRoot, 'server', 'agent'),
  ui: join(packageRoot, 'dist'),
};

export const packageVersion = (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
