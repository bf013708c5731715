import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The lines of a Markdown file outside fenced code blocks, with inline code spans blanked. */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, '``'));
  }
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading anchor of a Markdown file, with GitHub's `-1`, `-2` for repeated ones. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The relative links (`[text](target)`) of a Markdown file's prose. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(readFileSync(join(ROOT, file), 'utf8'))) {
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (!/^[a-z][a-z+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

/** Why a link of `file` does not lead anywhere, or undefined when it does. */
function brokenBecause(file: string, link: string): string | undefined {
  const [path, anchor] = link.split('#');
  const target = path === '' ? join(ROOT, file) : join(ROOT, dirname(file), decodeURIComponent(path));
  if (!existsSync(target)) return `${relative(ROOT, target)} does not exist`;
  if (anchor === undefined || !statSync(target).isFile() || !target.endsWith('.md')) return undefined;
  return anchors(target).has(anchor) ? undefined : `${relative(ROOT, target)} has no heading #${anchor}`;
}

describe('the README and the docs', () => {
  it('the README stays a page: 200 lines at most', () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
  });

  it('the README links to every document of docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((link) => link.split('#')[0]));
    expect(DOCUMENTS.filter((doc) => doc !== 'README.md' && !linked.has(doc))).toEqual([]);
  });

  it('every relative link leads to a file, and to a heading of it when it names one', () => {
    const broken = DOCUMENTS.flatMap((file) =>
      relativeLinks(file).flatMap((link) => {
        const why = brokenBecause(file, link);
        return why ? [`${file}: (${link}): ${why}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('the link check sees a missing file and a missing heading', () => {
    expect(brokenBecause('README.md', 'docs/no-such-doc.md')).toMatch(/does not exist/);
    expect(brokenBecause('docs/tui.md', 'agents.md#no-such-heading')).toMatch(/has no heading/);
    expect(brokenBecause('docs/tui.md', 'agents.md#watching-children')).toBeUndefined();
    expect(brokenBecause('docs/sessions.md', '#commands')).toBeUndefined();
  });
});
