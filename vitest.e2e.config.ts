import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: one server started the way `npm start` starts it (global setup),
// Debian's Chromium driven by playwright-core. Files run one after another: two cores.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
