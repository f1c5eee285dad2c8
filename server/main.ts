/** Runs the `opsdeck` command from source with tsx (`npm run dev`, benchmarks): `tsx server/main.ts start`. */
import { runCli } from './cli';

const code = await runCli(process.argv.slice(2));
if (code !== 0) process.exit(code);
