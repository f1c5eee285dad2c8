import { availableParallelism, loadavg } from 'node:os';

/** `--name 12` on the command line, or the default; anything else than a positive number stops the run. */
export function numberOption(name: string, fallback: number, args = process.argv.slice(2)): number {
  const at = args.indexOf(name);
  if (at === -1) return fallback;
  const n = Number(args[at + 1]);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} needs a positive number, got ${args[at + 1] ?? 'nothing'}`);
    process.exit(2);
  }
  return n;
}

export function flagOption(name: string, args = process.argv.slice(2)): boolean {
  return args.includes(name);
}

/** The 1-minute load average and core count, printed beside figures: other work on the machine skews them. */
export function machineLoad(): string {
  const [one] = loadavg();
  return `load average ${one!.toFixed(1)} on ${availableParallelism()} cores`;
}
