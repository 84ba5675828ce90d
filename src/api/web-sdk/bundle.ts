// The web SDK bundle, built from src/web-sdk in memory when the service starts (esbuild, one IIFE,
// minified), with its gzip and brotli forms and a strong ETag per form. Never written to disk: the
// bundle is always the one the running code was built from.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

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

/** From src/api/web-sdk (tsx) or dist/api/web-sdk (compiled: the SDK's sources stay in src). */
const ENTRY_CANDIDATES = ['../../web-sdk/index.ts', '../../../src/web-sdk/index.ts'];

function entryPoint(): string {
  for (const candidate of ENTRY_CANDIDATES) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (fs.existsSync(file)) return file;
  }
  throw new Error('web SDK sources (src/web-sdk/index.ts) not found');
}

const encoded = (body: Buffer, suffix: string): EncodedBundle => ({
  body,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}${suffix}"`,
});

export async function buildWebSdkBundle(): Promise<WebSdkBundle> {
  const result = await build({
    entryPoints: [entryPoint()],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // Old iOS and Android in-app browsers still visit landing pages.
    target: ['es2018', 'safari12'],
    minify: true,
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0]!.contents);
  return {
    identity: encoded(code, ''),
    gzip: encoded(gzipSync(code, { level: 9 }), '-gz'),
    br: encoded(brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), '-br'),
  };
}

let built: Promise<WebSdkBundle> | undefined;

/** One build per process; a failed build is tried again by the next caller. */
export function webSdkBundle(): Promise<WebSdkBundle> {
  built ??= buildWebSdkBundle().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}
