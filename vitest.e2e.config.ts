import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: one server started the way `npm start` starts it (global setup),
// Debian's Chromium driven by playwright-core. Files run one after another: two cores. The
// worker keeps its modules from one file to the next (isolate: false), as the unit files do: each
// file starts its own browser and server and closes them.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    isolate: false,
  },
});
