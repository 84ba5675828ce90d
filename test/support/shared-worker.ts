// Set-up of the `shared` test project, whose files run one after another in one process (see
// vitest.config.ts). chDB binds one data folder at a time in a process: a file that failed before
// its service closed would leave its folder bound, and every later file's start would fail on it.
// After each file, whatever it left open is closed (its own afterAll has run by then).
import { createRequire } from 'node:module';
import { afterAll } from 'vitest';

const require = createRequire(import.meta.url);

afterAll(() => {
  try {
    (require('chdb') as { _closeAllSessions(): void })._closeAllSessions();
  } catch {
    // No embedded ClickHouse in this install: nothing to close.
  }
});
