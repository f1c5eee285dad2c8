import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code; server integration tests live in server/**.test.ts and
// tests/api. Browser end-to-end tests have their own config (vitest.e2e.config.ts).
// Files run side by side: each API test opens its own database (a fresh PGlite, or a database of
// its own on the PostgreSQL server) and its own ports, so files share nothing. Two workers even
// on a two-core machine: much of a file's time is waiting (timers, PostgreSQL, sockets), and
// 312 s of one-at-a-time became 197 s.
// A worker keeps its modules from one file to the next (isolate: false): an API file imports the
// whole server, ~3 s of CPU each time over ~180 files, and no file relies on a fresh module state
// (a file that changes process-wide state — the environment, timers, mocks — puts it back).
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'commands/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/commands/**/*.test.{ts,tsx}', 'tests/monitoring/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    isolate: false,
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
