#!/usr/bin/env node
// npm's prepare step: builds the console app (console/) into dist/console, so a fresh clone's
// `npm ci && npm start` serves it with no manual step. Skipped, with a line saying so, where the
// app's sources or the build tools are absent (the image's production-only install).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const config = path.join(root, 'console', 'vite.config.ts');

if (!existsSync(config)) {
  console.log('console: no sources here; nothing to build');
  process.exit(0);
}
let vite;
try {
  vite = await import('vite');
} catch {
  console.log('console: vite is not installed (production install); the built app is expected in dist/console');
  process.exit(0);
}
await vite.build({ configFile: config, logLevel: 'warn' });
console.log('console: built into dist/console');
