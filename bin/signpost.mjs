#!/usr/bin/env node
// Launcher of the `signpost` command: the CLI is TypeScript, run through tsx like `npm start`, so
// there is no build step between editing it and using it.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/signpost.ts', import.meta.url).href);
