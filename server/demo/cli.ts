/**
 * Runs a demo fleet in its own process, for benchmarks and tests that must not share the
 * console's event loop: `tsx server/demo/cli.ts --count 200 [--port 9100] [--payload real|light]`. Prints one JSON
 * line `{"hosts":[...]}` once every host listens, then serves until SIGTERM or SIGINT.
 */
import { startDemoFleet } from './fleet';

function numberArg(args: string[], name: string): number | undefined {
  const at = args.indexOf(name);
  if (at === -1) return undefined;
  const raw = args[at + 1];
  const n = Number(raw);
  if (raw === undefined || !Number.isInteger(n) || n < 0) {
    console.error(`${name} needs a whole number, got ${raw ?? 'nothing'}`);
    process.exit(2);
  }
  return n;
}

const args = process.argv.slice(2);
// --payload light: only what the console reads; the default serves real-sized payloads.
const payload = args.includes('--payload') ? args[args.indexOf('--payload') + 1] : 'real';
if (payload !== 'real' && payload !== 'light') {
  console.error(`--payload is real or light, got ${payload ?? 'nothing'}`);
  process.exit(2);
}
const fleet = await startDemoFleet({ count: numberArg(args, '--count'), port: numberArg(args, '--port'), payload });
process.stdout.write(`${JSON.stringify({ hosts: fleet.hosts })}\n`);

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await fleet.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
