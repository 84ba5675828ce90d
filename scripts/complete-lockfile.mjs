// Run after `npm install` changes package-lock.json: `node scripts/complete-lockfile.mjs`.
// Why: the npm registry mirror our machines use serves chDB's native library only for linux-x64.
// npm then leaves chdb's other platform packages out of the lockfile, and npm 11's `npm ci`
// refuses a lockfile that misses an optional dependency. Recording them as optional, platform-
// bound entries (what a lockfile made against the full registry holds) lets `npm ci` skip them here
// and fetch them on macOS or arm64.
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const platformOf = (name) => {
  const m = /^@chdb\/lib-(darwin|linux)-(arm64|x64)/.exec(name);
  return m ? { os: [m[1]], cpu: [m[2]] } : undefined;
};
let added = 0;
for (const entry of Object.values(lock.packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const path = `node_modules/${dep}`;
    const platform = platformOf(dep);
    if (!platform || lock.packages[path]) continue;
    lock.packages[path] = { version, ...platform, optional: true, license: entry.license ?? 'Apache-2.0' };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added ? `added ${added} platform entries to package-lock.json` : 'package-lock.json already complete');
