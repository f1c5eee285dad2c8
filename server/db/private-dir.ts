import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * DATA_DIR holds the embedded database (its write-ahead log carries password hashes), the key
 * that seals channel and check secrets, and the control socket: only the account Opsdeck runs as
 * may read or write any of it (issue 25 §5, docs/decisions.md "Secrets and data files").
 *
 * - The process umask becomes 077, so every file PGlite creates later (new relation files, WAL
 *   segments) is 0600 and every folder 0700, whatever the umask it was started with.
 * - The folder is created 0700 if missing.
 * - Every folder and file already inside that other accounts could reach is made owner-only
 *   (folders 0700, files keep only their owner's bits: 0666 becomes 0600), and that is said once.
 *
 * Symbolic links are not followed (what they point to is not ours to change). A folder with the
 * sticky bit (/tmp and its like, shared by design) given as DATA_DIR is left as it is and warned
 * about: it is not Opsdeck's folder, so only Opsdeck's own entries in it are made owner-only.
 */
/** What Opsdeck itself keeps in DATA_DIR (the database, its set-aside copies, the key, lock, pid and socket). */
const OWN = /^(pglite(\..*)?|secret\.key|opsdeck\..*)$/;

export function makeDataDirPrivate(dataDir: string, log: (line: string) => void = (l) => console.warn(l)): { folders: number; files: number } {
  try {
    process.umask(0o077);
  } catch {
    // Worker threads cannot set the umask; the walk below still fixes what exists.
  }
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const fixed = { folders: 0, files: 0 };
  const failed: string[] = [];
  const top = lstatSync(dataDir);
  const shared = top.isDirectory() && (top.mode & 0o1000) !== 0;
  if (shared) log(`DATA_DIR ${dataDir} is a shared folder (sticky bit set): only Opsdeck's own files in it are made owner-only; give Opsdeck a folder of its own`);
  const visit = (path: string, isTop: boolean) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // gone meanwhile
    }
    if (st.isSymbolicLink()) return;
    if (st.isDirectory()) {
      if (!(isTop && st.mode & 0o1000) && st.mode & 0o077) {
        try {
          chmodSync(path, 0o700);
          fixed.folders++;
        } catch {
          failed.push(path);
        }
      }
      let entries: string[] = [];
      try {
        entries = readdirSync(path);
      } catch {
        failed.push(path);
      }
      if (isTop && shared) entries = entries.filter((e) => OWN.test(e));
      for (const e of entries) visit(join(path, e), false);
    } else if (st.mode & 0o077) {
      try {
        chmodSync(path, st.mode & 0o700);
        fixed.files++;
      } catch {
        failed.push(path);
      }
    }
  };
  visit(dataDir, true);
  if (fixed.folders || fixed.files) {
    log(`Made DATA_DIR ${dataDir} owner-only: ${fixed.folders} folder${fixed.folders === 1 ? '' : 's'} (now 0700) and ${fixed.files} file${fixed.files === 1 ? '' : 's'} (now 0600) were open to other local accounts`);
  }
  if (failed.length) log(`Could not make ${failed.length} entr${failed.length === 1 ? 'y' : 'ies'} of DATA_DIR ${dataDir} owner-only (first: ${failed[0]}): they belong to another account`);
  return fixed;
}
