import { defineConfig } from 'vitest/config';

// Unit tests sit beside their code; server integration tests live in server/**.test.ts and
// tests/api. Browser end-to-end tests are run by tests/e2e/run.ts, not by vitest.
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'commands/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/commands/**/*.test.{ts,tsx}', 'tests/monitoring/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
