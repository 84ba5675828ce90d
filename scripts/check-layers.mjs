#!/usr/bin/env node
// Checks the direction of imports in src/: api → core → (oltp | olap | ingest | mail) → shared, with the
// composition root (container.ts, compose/, main.ts, cli/) above them all, and finds import cycles
// (type-only imports count: a cycle of types still ties the modules together). The typed client
// (clients/typescript) is a package for users: it imports its own files and its dependencies only.
// Prints every offending import and every cycle; exits 1 when there is one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');

/** Which layers each layer may import (besides itself). */
const MAY_IMPORT = {
  root: ['api', 'core', 'oltp', 'olap', 'ingest', 'mail', 'shared'],
  api: ['core', 'shared', 'web-sdk'],
  core: ['oltp', 'olap', 'ingest', 'mail', 'shared'],
  oltp: ['shared'],
  olap: ['shared'],
  ingest: ['shared'],
  mail: ['shared'],
  shared: [],
  // The browser SDK is its own bundle; it shares only the type of the config the landing page embeds
  // (a type import: nothing of the service's code reaches the browser).
  'web-sdk': ['api'],
};

function layerOf(file) {
  const rel = path.relative(src, file).split(path.sep);
  if (rel.length === 1 || rel[0] === 'compose' || rel[0] === 'cli') return 'root';
  return rel[0];
}

/** Whether a file of layer `from` may import one of layer `to`. */
function allowed(from, to) {
  if (from === to) return true;
  return (MAY_IMPORT[from] ?? []).includes(to);
}

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ts|mts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

// Static imports and re-exports, type-only ones included; dynamic import() too.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
    base,
    `${base}.ts`,
    path.join(base, 'index.ts'),
  ]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this spelling
    }
  }
  return undefined;
}

const files = walk(src);
const graph = new Map();
const problems = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const targets = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    const target = resolve(file, spec);
    if (!target?.startsWith(src)) continue;
    targets.push(target);
    const [from, to] = [layerOf(file), layerOf(target)];
    if (!allowed(from, to))
      problems.push(`layer: ${path.relative(root, file)} (${from}) imports ${path.relative(root, target)} (${to})`);
  }
  graph.set(file, targets);
}

const client = path.join(root, 'clients', 'typescript');
const clientDependencies = Object.keys(
  JSON.parse(readFileSync(path.join(client, 'package.json'), 'utf8')).dependencies ?? {},
);
const ANY_IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
for (const file of walk(path.join(client, 'src'))) {
  for (const m of readFileSync(file, 'utf8').matchAll(ANY_IMPORT)) {
    const spec = m[1] ?? m[2];
    const inside = spec.startsWith('.')
      ? resolve(file, spec)?.startsWith(path.join(client, 'src'))
      : clientDependencies.includes(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        );
    if (!inside)
      problems.push(
        `client: ${path.relative(root, file)} imports ${spec}, neither its own file nor a dependency in clients/typescript/package.json`,
      );
  }
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const stack = [];
const state = new Map();
const cycles = [];
function connect(v) {
  const s = { index, low: index, onStack: true };
  index++;
  state.set(v, s);
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    const t = state.get(w);
    if (!t) {
      connect(w);
      s.low = Math.min(s.low, state.get(w).low);
    } else if (t.onStack) s.low = Math.min(s.low, t.index);
  }
  if (s.low === s.index) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      state.get(w).onStack = false;
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component);
  }
}
for (const v of graph.keys()) if (!state.has(v)) connect(v);
for (const cycle of cycles)
  problems.push(
    `cycle: ${cycle
      .map((f) => path.relative(root, f))
      .sort()
      .join(' ↔ ')}`,
  );

for (const p of problems) console.log(p);
console.log(`${files.length} files in src/, ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
process.exit(problems.length > 0 ? 1 : 0);
