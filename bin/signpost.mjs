#!/usr/bin/env node
// Launcher of the `signpost` command. In a checkout the CLI runs from its TypeScript through tsx, so
// there is no build step between editing it and using it; a production install (no tsx, perhaps no
// sources) runs the compiled dist/cli/signpost.js.
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/signpost.ts', import.meta.url);
let entry = new URL('../dist/cli/signpost.js', import.meta.url);
if (existsSync(source)) {
  try {
    const { register } = await import('tsx/esm/api');
    register();
    entry = source;
  } catch {
    // tsx is a development dependency: without it, the compiled CLI.
  }
}
await import(entry.href);
