/**
 * The `opsdeck` command (bin/opsdeck.js runs the compiled copy of this file; `npm start` runs
 * `opsdeck start`). Each subcommand reads the same environment settings as the server
 * (README "Configuration").
 */
import { backup, BackupError, restore } from './backup/backup';
import { DataDirLockedError } from './db/data-lock';
import { ControlChannelError } from './backup/control';
import { loadConfig } from './config';
import { DashboardError, DEFAULT_SOURCE, writeDashboards } from './grafana/dashboards';
import { packageVersion } from './paths';
import { serve, type ServeOptions } from './start';

const USAGE = `Opsdeck ${packageVersion}: self-hostable monitoring and alerting console.

Usage:
  opsdeck [start]          serve the console (UI and API) on PORT; settings come from the
                           environment (README "Configuration")
  opsdeck backup FILE      write a consistent backup of the database to FILE: the running
                           server makes it (embedded database in DATA_DIR), or the data folder is
                           read directly when no server runs; with DATABASE_URL, pg_dump
  opsdeck restore FILE [--force]
                           restore FILE into DATA_DIR (or DATABASE_URL with pg_restore); the
                           server must be stopped; --force replaces a database already there
                           (the embedded one is set aside, not deleted)
  opsdeck grafana-dashboards DIR [--source URL]
                           download Grafana dashboards 1860 and 14694 (pinned, SHA-256 checked)
                           into DIR for Grafana's provisioning, under the uids the console
                           embeds (docs/grafana.md); --source: a mirror of ${DEFAULT_SOURCE}
  opsdeck version          print the version
  opsdeck help             this text
`;

/** Runs one subcommand; resolves with the exit code (`start` resolves once the server listens). */
export async function runCli(argv: string[], options: ServeOptions = {}): Promise<number> {
  const [command = 'start', ...rest] = argv;
  try {
    switch (command) {
      case 'start':
        if (rest.length) return usageError(`'start' takes no arguments (got ${rest.join(' ')})`);
        await serve(loadConfig(), options);
        return 0;
      case 'backup': {
        if (rest.length !== 1 || rest[0]!.startsWith('-')) return usageError('backup takes one argument, the file to write');
        await backup(loadConfig(), rest[0]!, console.log);
        return 0;
      }
      case 'restore': {
        const force = rest.includes('--force');
        const files = rest.filter((a) => a !== '--force');
        const unknown = files.find((a) => a.startsWith('-'));
        if (unknown) return usageError(`unknown option ${unknown}`);
        if (files.length !== 1) return usageError('restore takes one argument, the backup file');
        await restore(loadConfig(), files[0]!, { force }, console.log);
        return 0;
      }
      case 'grafana-dashboards': {
        const at = rest.indexOf('--source');
        const source = at >= 0 ? rest[at + 1] : DEFAULT_SOURCE;
        const dirs = rest.filter((_, i) => at < 0 || (i !== at && i !== at + 1));
        if (!source || source.startsWith('-')) return usageError('--source needs a URL');
        if (dirs.length !== 1 || dirs[0]!.startsWith('-')) return usageError('grafana-dashboards takes one argument, the folder to write');
        await writeDashboards(dirs[0]!, source, console.log);
        return 0;
      }
      case 'version':
      case '--version':
        console.log(packageVersion);
        return 0;
      case 'help':
      case '--help':
      case '-h':
        console.log(USAGE);
        return 0;
      default:
        return usageError(`unknown command '${command}'`);
    }
  } catch (err) {
    // Refusals the operator can act on are one line; anything else keeps its stack.
    if (err instanceof BackupError || err instanceof ControlChannelError || err instanceof DashboardError || err instanceof DataDirLockedError) console.error(`opsdeck: ${err.message}`);
    else console.error(err);
    return 1;
  }
}

function usageError(message: string): number {
  console.error(`opsdeck: ${message}\n\n${USAGE}`);
  return 2;
}
