import react from '@vitejs/plugin-react';
import fs from 'node:fs';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two runs, one suite. `npm test` runs every test file on the embedded engines (PGlite, chDB, the
// in-process bus). `npm run test:services` runs again, on real PostgreSQL and NATS JetStream, the
// files whose outcome can depend on them: every file not listed below. A new test file runs in
// both unless it is added here, so list a file only when it touches neither PostgreSQL nor the bus
// beyond what the files of both runs already cover (both runs use chDB). Today that is:
// - pure code: everything in test/unit/;
// - ClickHouse alone: migrations and rollups on chDB, the OLAP writer's row sink, the operator's
//   read-only SQL and the documented data-team queries;
// - pages in a browser (Chromium): what a person sees; the records behind them come through the
//   same routes the HTTP tests of both runs call;
// - documents and the in-process bus: the OpenAPI document and its compatibility, the Kubernetes
//   manifests as kubectl renders them, the embedded bus on its folder (the services run has NATS
//   instead; test/bus.test.ts runs the contract on both).
const embeddedOnly = [
  'test/unit/**',
  // ClickHouse alone
  'test/admin-sql.test.ts',
  'test/click-cid-rollups.test.ts',
  'test/click-rollups.test.ts',
  'test/clickhouse-cluster-ddl.test.ts',
  'test/clickhouse-data-teams.test.ts',
  'test/clickhouse-view-reload.test.ts',
  'test/deeplink-rollups.test.ts',
  'test/install-stats-pass.test.ts',
  'test/journey-dashboard-pass.test.ts',
  'test/olap-writer-replay.test.ts',
  'test/olap-writer-split.test.ts',
  // pages in a browser
  'test/accounts-e2e.test.ts',
  'test/client-hints-match.test.ts',
  'test/clipboard-match.test.ts',
  'test/console-e2e.test.ts',
  'test/console-links-e2e.test.ts',
  'test/deep-link-e2e.test.ts',
  'test/landing-page.test.ts',
  'test/member-sessions-e2e.test.ts',
  'test/oidc-e2e.test.ts',
  'test/page-language.test.ts',
  'test/report-mail-e2e.test.ts',
  'test/routing-editor-e2e.test.ts',
  'test/security-headers.test.ts',
  'test/stats-share-browser.test.ts',
  'test/web-sdk.test.ts',
  // documents, clients and the in-process bus
  'test/kubernetes.test.ts',
  'test/memory-bus-durable.test.ts',
  'test/openapi-breaking.test.ts',
  'test/openapi-lint.test.ts',
  'test/typescript-client.test.ts',
];
// A listed file that was renamed or removed stops every run until the list is corrected.
for (const file of embeddedOnly) {
  if (!file.includes('*') && !fs.existsSync(path.join(import.meta.dirname, file)))
    throw new Error(`vitest.config.ts: ${file} is listed as embedded-only but does not exist`);
}
const servicesRun = process.env.SIGNPOST_TEST_BACKEND === 'services';

// Files that may share a worker process, one after another: pure code, and files whose services
// run in the test's own process on copies of the migrated stores (serviceForFile(), or isolate()
// with startService() from test/support/service.ts). A shared worker pays for its start and the
// app's imports once, not once a file; chDB binds one data folder at a time in a process, and
// test/support/shared-worker.ts closes whatever a file left open. A file keeps a process of its
// own when the process is part of what it tests: a first migration on fresh stores (chDB keeps
// what a process did to its views), stores or a container it opens itself, the service as a child
// process (test/support/service-process.ts), a fork; and the load and fault tests, whose timing
// is theirs alone.
const ownProcess = /fresh: true|service-process\.js|\b(createContainer|createClickhouse|createPostgres|spawn|fork)\(/;
const loadAndFaultTests = ['fault-reconcile', 'kill-restart', 'multi-instance', 'nats-outage', 'no-loss'];
const testRoot = path.join(import.meta.dirname, 'test');
const sharedFiles = fs
  .readdirSync(testRoot, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) => !loadAndFaultTests.includes(path.basename(file, '.test.ts')))
  .filter((file) => !ownProcess.test(fs.readFileSync(path.join(testRoot, file), 'utf8')))
  .map((file) => `test/${file.split(path.sep).join('/')}`);

// Files that spend most of their time waiting (back-offs, a store refusing writes) start first, so
// their waits overlap the other files' work. Without a record of earlier runs (a fresh machine)
// vitest starts larger files first, and these two, being small, ended the services run alone.
const waitingFiles = new Set(['bus', 'nats-poison'].map((name) => path.join(testRoot, `${name}.test.ts`)));

class WaitingFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (spec: TestSpecification) => waitingFiles.has(path.resolve(spec.moduleId));
    return [...sorted.filter(waits), ...sorted.filter((spec) => !waits(spec))];
  }
}

/** What both service projects share: the stores migrated once per run, the time limits. */
const serviceProject = {
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 120_000,
  // What a page shows after its data loads: a second (the default) is too short on a
  // loaded 2-core machine, and a page that never shows it still fails after ten.
  expect: { poll: { timeout: 10_000 } },
  globalSetup: ['test/support/global-setup.ts'],
};

export default defineConfig({
  test: {
    reporters: ['default'],
    sequence: { sequencer: WaitingFilesFirst },
    teardownTimeout: 60_000,
    // Four workers for the service files on a 2-core machine: they mostly wait (on the stores,
    // the bus, a child process, a back-off), so more workers fill idle cores. `.ci/run` on a quiet
    // 2-core machine: the services run took about 420 s with two workers, 299 s with three and
    // 233 s with four; the embedded run, busier with browsers, about the same with three or four.
    projects: [
      {
        // Every other service test file in a forked process of its own.
        test: {
          ...serviceProject,
          name: 'service',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...sharedFiles, ...(servicesRun ? embeddedOnly : [])],
          isolate: true,
          maxWorkers: 4,
        },
      },
      {
        // The files that may share a process (see sharedFiles): the same workers as the service
        // project's files, each reused from one shared file to the next.
        test: {
          ...serviceProject,
          name: 'shared',
          include: sharedFiles,
          exclude: [...configDefaults.exclude, ...(servicesRun ? embeddedOnly : [])],
          isolate: false,
          maxWorkers: 4,
          setupFiles: ['test/support/shared-worker.ts'],
        },
      },
      {
        // The console's components, rendered in a DOM with the console's own words and theme.
        plugins: [react()],
        test: {
          name: 'console',
          include: ['console/test/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          // Its own group, after the service suite: the two keep their own worker counts. Both
          // cores are free by then.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          setupFiles: ['console/test/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
