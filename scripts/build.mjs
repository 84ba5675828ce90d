#!/usr/bin/env node
// The production build: TypeScript compiled into dist/ (tsconfig.build.json) and the web SDK bundled
// into dist/web-sdk/signpost.js with its CHANGELOG.md, so `node dist/main.js` runs on production
// dependencies alone (no tsx, no esbuild, no sources). npm's prepare step runs it, and `npm start`
// first (`--if-stale`: only when a source is newer than the last build).
//
//   node scripts/build.mjs [--out DIR] [--if-stale]
//
// Skipped, with a line saying so, where the sources or TypeScript are absent (a production-only
// install, the image's dependency layer).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { out: { type: 'string', default: 'dist' }, 'if-stale': { type: 'boolean', default: false } },
});
const out = path.resolve(root, values.out);
const src = path.join(root, 'src');
const shown = path.relative(root, out).startsWith('..') ? out : path.relative(root, out);
// Written last, so it stands for a build that finished.
const bundleFile = path.join(out, 'web-sdk', 'signpost.js');

if (!fs.existsSync(path.join(src, 'main.ts'))) {
  console.log('build: no sources here; nothing to build');
  process.exit(0);
}

/** The newest modification time under these paths (files and folders alike). */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    const stat = fs.statSync(p, { throwIfNoEntry: false });
    if (!stat) return;
    latest = Math.max(latest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of fs.readdirSync(p)) visit(path.join(p, name));
  };
  paths.forEach(visit);
  return latest;
}

if (values['if-stale']) {
  const built = fs.statSync(bundleFile, { throwIfNoEntry: false });
  const inputs = [src, 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => path.resolve(root, p));
  if (built && built.mtimeMs >= newest(inputs)) process.exit(0);
  console.log(`build: ${built ? 'sources changed since the last build' : 'no build yet'}; building ${shown}`);
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.log('build: TypeScript is not installed (production install); the compiled service is expected in dist/');
  process.exit(0);
}
try {
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', out], {
    cwd: root,
    stdio: 'inherit',
  });
} catch {
  console.error('build: TypeScript reported errors (above)');
  process.exit(1);
}

// Bundled as the service bundles it from src/ (the options come from the compiled module).
const { WEB_SDK_BUILD_OPTIONS } = await import(pathToFileURL(path.join(out, 'api', 'web-sdk', 'bundle.js')).href);
const { build } = await import('esbuild');
fs.mkdirSync(path.dirname(bundleFile), { recursive: true });
fs.copyFileSync(path.join(src, 'web-sdk', 'CHANGELOG.md'), path.join(out, 'web-sdk', 'CHANGELOG.md'));
await build({
  ...WEB_SDK_BUILD_OPTIONS,
  entryPoints: [path.join(src, 'web-sdk', 'index.ts')],
  outfile: bundleFile,
  write: true,
});
console.log(`build: compiled into ${shown}`);
