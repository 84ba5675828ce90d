// The console's single-page app, built by Vite into dist/console (npm's prepare step): its index
// answered for every console path (the app routes itself) with this answer's CSP nonce and the
// page language filled in and no caching, its hashed assets as immutable files. Read once at start.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** From src/api/console (tsx) or dist/api/console (compiled). */
const CANDIDATES = ['../../../dist/console', '../../console'];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export interface ConsoleAsset {
  body: Buffer;
  type: string;
}

export interface ConsoleApp {
  /** The index page for this answer. */
  index(options: { nonce: string; language: string }): string;
  asset(name: string): ConsoleAsset | undefined;
}

/** The built app in `dir` (or the default build folder); undefined when it has not been built. */
export function loadConsoleApp(dir: string | undefined): ConsoleApp | undefined {
  const root =
    dir ??
    CANDIDATES.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((c) =>
      fs.existsSync(path.join(c, 'index.html')),
    );
  if (!root || !fs.existsSync(path.join(root, 'index.html'))) return undefined;
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const assets = new Map<string, ConsoleAsset>();
  const assetDir = path.join(root, 'assets');
  for (const name of fs.existsSync(assetDir) ? fs.readdirSync(assetDir) : []) {
    const type = TYPES[path.extname(name)];
    if (type) assets.set(name, { body: fs.readFileSync(path.join(assetDir, name)), type });
  }
  return {
    index: ({ nonce, language }) =>
      html.replace('__CSP_NONCE__', nonce).replace('<html lang="ko">', `<html lang="${language}">`),
    asset: (name) => assets.get(name),
  };
}

/**
 * What the app may load: its own scripts and styles, Mantine's runtime styles by nonce, calls to
 * this origin; images also over https, since a link's share preview shows its Open Graph image.
 */
export function consoleAppPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
