// `npm run typecheck`: the service, the web SDK, the console and the TypeScript client, each with
// its own tsconfig, two at a time (as many as a small CI machine has cores); every output is
// printed, and the exit code is 1 when any of them failed.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = [
  ['-p', 'tsconfig.json', '--noEmit'],
  ['-p', 'console/tsconfig.json'],
  ['-p', 'src/web-sdk/tsconfig.json'],
  ['-p', 'clients/typescript/tsconfig.json', '--noEmit'],
];

function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ args, code, output }));
  });
}

const queue = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: 2 }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) results.push(await run(next));
  }),
);
let failed = false;
for (const { args, code, output } of results) {
  if (output.trim()) process.stdout.write(`tsc ${args.join(' ')}\n${output}`);
  if (code !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
