// The README, CONTRIBUTING.md, the changelog and docs/ point at each other and at the code: every
// relative link must reach a file (and its heading, when it names one), and every repository path
// they quote in backticks must exist, so a moved file or a renamed heading fails here, not in a
// reader's browser.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');

const documents = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks, line by line, with the line numbers. */
function proseLines(text: string): Array<{ line: string; n: number }> {
  const out: Array<{ line: string; n: number }> = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line, n: i + 1 });
  });
  return out;
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative link targets (`[text](target)`, images too), outside code blocks and inline code. */
function relativeLinks(markdown: string): Array<{ target: string; n: number }> {
  const links: Array<{ target: string; n: number }> = [];
  for (const { line, n } of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ target, n });
    }
  }
  return links;
}

/** Paths into the repository quoted in backticks (`src/api/app.ts`), without placeholders. */
function quotedPaths(markdown: string): Array<{ target: string; n: number }> {
  const paths: Array<{ target: string; n: number }> = [];
  const top = /^(?:src|test|scripts|sql|bench|console|clients|openapi|docs|bin|deploy)\//;
  for (const { line, n } of proseLines(markdown)) {
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const quoted = match[1]!.replace(/[.,:;]$/, '');
      if (!top.test(quoted) || /[<>{}*…]|NNNN|000N/.test(quoted)) continue;
      paths.push({ target: quoted, n });
    }
  }
  return paths;
}

describe('headingAnchors', () => {
  it('makes the anchors GitHub makes', () => {
    const anchors = headingAnchors(
      [
        '# Signpost',
        '## User journey (`/api/v1/cross-platform`)',
        '### Releasing: the API document',
        "### Operator surfaces only on the service's host",
        '## Notes',
        '## Notes',
        '```sh',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...anchors]).toEqual([
      'signpost',
      'user-journey-apiv1cross-platform',
      'releasing-the-api-document',
      'operator-surfaces-only-on-the-services-host',
      'notes',
      'notes-1',
    ]);
  });
});

describe.each(documents)('%s', (document) => {
  const text = fs.readFileSync(path.join(root, document), 'utf8');
  const dir = path.dirname(path.join(root, document));

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const { target, n } of relativeLinks(text)) {
      const [file = '', anchor] = target.split('#');
      const resolved = file === '' ? path.join(root, document) : path.resolve(dir, decodeURIComponent(file));
      if (!resolved.startsWith(root) || !fs.existsSync(resolved)) {
        broken.push(`line ${n}: ${target} (no such file)`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith('.md')) continue;
      if (!headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
        broken.push(`line ${n}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('quotes only repository paths that exist', () => {
    const missing = quotedPaths(text)
      .filter(({ target }) => !fs.existsSync(path.join(root, target)))
      .map(({ target, n }) => `line ${n}: ${target}`);
    expect(missing).toEqual([]);
  });
});
