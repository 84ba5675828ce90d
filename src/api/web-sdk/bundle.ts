// The web SDK bundle (one IIFE, minified) with its gzip and brotli forms and a strong ETag per form.
// The compiled service (dist/) reads the bundle the build wrote next to it (scripts/build.mjs), so
// production needs neither the SDK's sources nor esbuild; run from src/ (tsx, tests), the bundle is
// built in memory from src/web-sdk as the service starts, so it is always the one the code beside it
// was built from.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BuildOptions } from 'esbuild';

export interface EncodedBundle {
  body: Buffer;
  /** Strong validator, distinct per encoding (a strong ETag names exact bytes). */
  etag: string;
}

export interface WebSdkBundle {
  identity: EncodedBundle;
  gzip: EncodedBundle;
  br: EncodedBundle;
}

/** The SDK's folder: src/web-sdk beside src/api, dist/web-sdk beside dist/api. */
const sdkFile = (name: string) => fileURLToPath(new URL(`../../web-sdk/${name}`, import.meta.url));

/** Where scripts/build.mjs writes the bundle in the compiled service's SDK folder. */
const BUILT_BUNDLE_FILE = 'signpost.js';

const encoded = (body: Buffer, suffix: string): EncodedBundle => ({
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`,
});

/**
 * How esbuild bundles the SDK, here and in scripts/build.mjs (which adds the entry point and the
 * output file, and imports this from the compiled module).
 * @public
 */
export const WEB_SDK_BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  format: 'iife',
  platform: 'browser',
  // Old iOS and Android in-app browsers still visit landing pages.
  target: ['es2018', 'safari12'],
  minify: true,
  legalComments: 'none',
  logLevel: 'silent',
};

/** esbuild is a build tool, loaded only when the service runs from its sources. */
async function compileWebSdk(entryPoint: string): Promise<Buffer> {
  const { build } = await import('esbuild');
  const result = await build({ ...WEB_SDK_BUILD_OPTIONS, entryPoints: [entryPoint], write: false });
  // write: false hands the output back in memory.
  return Buffer.from(result.outputFiles![0]!.contents);
}

export async function buildWebSdkBundle(): Promise<WebSdkBundle> {
  const built = sdkFile(BUILT_BUNDLE_FILE);
  const source = sdkFile('index.ts');
  let code: Buffer;
  if (fs.existsSync(built)) code = fs.readFileSync(built);
  else if (fs.existsSync(source)) code = await compileWebSdk(source);
  else throw new Error(`web SDK not found: neither ${built} (npm run build) nor its sources ${source}`);
  return {
    identity: encoded(code, ''),
    gzip: encoded(gzipSync(code, { level: 9 }), '-gz'),
    br: encoded(brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), '-br'),
  };
}

/** The SDK's changelog, from src/web-sdk or, compiled, the copy the build put in dist/web-sdk. */
export const readWebSdkChangelog = (): string => fs.readFileSync(sdkFile('CHANGELOG.md'), 'utf8');

let built: Promise<WebSdkBundle> | undefined;

/** One build per process; a failed build is tried again by the next caller. */
export function webSdkBundle(): Promise<WebSdkBundle> {
  built ??= buildWebSdkBundle().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}
