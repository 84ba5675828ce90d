import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default'],
    teardownTimeout: 60_000,
    projects: [
      {
        // chDB is one engine per process, so every service test file runs in its own forked process.
        test: {
          name: 'service',
          include: ['test/**/*.test.ts'],
          pool: 'forks',
          isolate: true,
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 120_000,
          // What a page shows after its data loads: a second (the default) is too short on a
          // loaded 2-core machine, and a page that never shows it still fails after ten.
          expect: { poll: { timeout: 10_000 } },
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        // The console's components, rendered in a DOM with the console's own words and theme.
        plugins: [react()],
        test: {
          name: 'console',
          include: ['console/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Its own group, after the service suite: the two keep their own worker counts.
          sequence: { groupOrder: 1 },
          setupFiles: ['console/test/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
