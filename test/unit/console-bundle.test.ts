// The console's first load as the browser fetches it: the entry script and what index.html
// preloads, under 250 KB gzip together, with every screen left to its own chunk loaded on demand.
// Reads the build `npm ci` makes (prepare); sizes, not times.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve('dist/console');
const BUDGET = 250 * 1024;

describe('console bundle', () => {
  it('loads under 250 KB of gzipped JavaScript first, and each screen later', () => {
    const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
    const initial = [
      ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/console\/(assets\/[^"]+\.js)"/g),
    ].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    const gzipped = initial.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(DIST, file))).length, 0);
    console.log(`console initial JavaScript: ${(gzipped / 1024).toFixed(1)} KB gzip in ${initial.length} files`);
    expect(gzipped).toBeLessThan(BUDGET);

    const all = fs.readdirSync(path.join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
    for (const screen of ['Links', 'Campaigns', 'Webhooks', 'ApiKeys', 'Members', 'AuditLog', 'LinkEditor']) {
      const chunk = all.find((f) => f.startsWith(`${screen}-`));
      expect(chunk, `${screen} has its own chunk`).toBeDefined();
      expect(initial).not.toContain(`assets/${chunk}`);
    }
  });
});
