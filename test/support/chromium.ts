// The one place that finds and starts the browser of the browser tests and the console benchmark:
// the Chromium that `npm ci` brings, unless CHROMIUM_PATH names another.
//
// @sparticuz/chromium ships a headless Chromium inside the package, brotli-compressed, with the NSS
// libraries it links (built for Amazon Linux, which runs here as well) and a font, so a machine with
// Node and npm only has all it needs. We unpack those ourselves rather than through the package's
// own `executablePath()`: that one writes to fixed names in the temporary folder (/tmp/chromium,
// /tmp/fonts) and reuses whatever is there, whichever version it is, and test files starting at
// once could launch a half-written binary. Here each package version unpacks once into a folder of
// its own, renamed into place when complete, and every later run reuses it.
//
// The package's build is Chromium's headless shell, which ignores
// --unsafely-treat-insecure-origin-as-secure: a test whose page needs a secure context over plain
// HTTP serves it under a .localhost name, which Chromium always counts as one.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

// Without the background-networking flags Chromium keeps calling Google's hosts, which this
// closed network refuses; without a sandbox it runs as root.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const require = createRequire(import.meta.url);

interface ChromiumBinary {
  executablePath: string;
  /** What the browser's process needs besides the test's environment. */
  env: Record<string, string>;
}

/** The package's unpacked browser, unpacking it first when this version has not been yet. */
async function packagedChromium(): Promise<ChromiumBinary> {
  // The package's entry point lies some folders below its root, which holds bin/.
  let packageDir = path.dirname(require.resolve('@sparticuz/chromium'));
  while (!fs.existsSync(path.join(packageDir, 'bin', 'chromium.br'))) {
    if (packageDir === path.dirname(packageDir)) throw new Error('@sparticuz/chromium has no bin/chromium.br');
    packageDir = path.dirname(packageDir);
  }
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string };
  const dir = path.join(os.tmpdir(), `signpost-chromium-${version}`);
  if (!fs.existsSync(dir)) await unpack(path.join(packageDir, 'bin'), dir);
  return {
    executablePath: path.join(dir, 'chromium'),
    env: {
      LD_LIBRARY_PATH: [path.join(dir, 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: path.join(dir, 'fonts.conf'),
    },
  };
}

async function unpack(bin: string, dir: string): Promise<void> {
  const partial = fs.mkdtempSync(`${dir}.partial-`);
  try {
    await pipeline(
      fs.createReadStream(path.join(bin, 'chromium.br')),
      zlib.createBrotliDecompress(),
      fs.createWriteStream(path.join(partial, 'chromium'), { mode: 0o755 }),
    );
    // al2023.tar.br holds lib/ (NSS, NSPR, expat); fonts.tar.br holds fonts/ (Open Sans) and a
    // fonts.conf for Lambda's folders, replaced below.
    for (const archive of ['al2023.tar.br', 'fonts.tar.br']) {
      const tar = spawnSync('tar', ['-x', '--no-same-owner', '-C', partial], {
        input: zlib.brotliDecompressSync(fs.readFileSync(path.join(bin, archive))),
      });
      if (tar.status !== 0) throw new Error(`unpacking ${archive}: ${String(tar.stderr)}`);
    }
    // The machine's own fonts where it has some (Korean pages need them), and the package's font always.
    fs.writeFileSync(
      path.join(partial, 'fonts.conf'),
      `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${path.join(dir, 'fonts')}</dir>
  <cachedir>${path.join(dir, 'fonts-cache')}</cachedir>
</fontconfig>
`,
    );
    fs.chmodSync(partial, 0o755);
    fs.renameSync(partial, dir);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    // Another test file unpacked the same version first: use that one.
    if (!fs.existsSync(dir)) throw error;
  }
}

/** Headless Chromium, with the flags every test needs and a test's own after them. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  const named = process.env.CHROMIUM_PATH;
  const binary = named ? { executablePath: named, env: {} } : await packagedChromium();
  return chromium.launch({
    executablePath: binary.executablePath,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    env: { ...process.env, ...binary.env },
  });
}
