import { defineConfig } from 'vitest/config';

// chDB is one engine per process, so every test file runs in its own forked process.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    isolate: true,
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default'],
  },
});
