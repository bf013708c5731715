// node-ignore's gitignore cases, each built into a git repository: glob, search_files and
// list_files must list exactly what `git ls-files --cached --others --exclude-standard` does.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { git, gitListing, writePaths } from '../support/git_trees.js';
import { tempDir } from '../support/runtime_fixtures.js';

interface IgnoreCase {
  description: string;
  patterns: string[];
  paths: Record<string, 0 | 1>;
}

const cases: IgnoreCase[] = JSON.parse(
  readFileSync(new URL('../fixtures/node_ignore/cases.json', import.meta.url), 'utf8'),
);

/** One workspace (not a repository) for all cases: each case is a repository in a folder of it. */
const workspace = tempDir('lathe-ignore-cases-');
const runtime = createRuntime({ cwd: workspace, documentsRoot: tempDir('lathe-home-') });

/** A repository of one case: its .gitignore and its paths (those inside .git left out, as node-ignore does). */
function caseRepository(c: IgnoreCase, name: string): string {
  const dir = join(workspace, name);
  mkdirSync(dir);
  // The comment gives search_files an "x" to find in .gitignore too; it changes no rule.
  writeFileSync(join(dir, '.gitignore'), `${c.patterns.join('\n')}\n# x\n`);
  writePaths(
    dir,
    Object.keys(c.paths).filter((p) => p !== '.gitignore' && !p.startsWith('.git/')),
  );
  git(dir, ['init', '-q']);
  return dir;
}

/** Whether `git check-ignore` calls `name` ignored. */
function gitIgnores(dir: string, name: string): boolean {
  return spawnSync('git', ['check-ignore', '-q', name], { cwd: dir }).status === 0;
}

/** The paths of a tool's answer below the case's folder: its lines up to the first blank one (a note may follow). */
function shownPaths(text: string, name: string): string[] {
  const lines = text.split('\n\n')[0].split('\n');
  return lines
    .filter((l) => l.startsWith(`${name}/`))
    .map((l) => l.slice(name.length + 1))
    .sort();
}

describe("glob, search_files and list_files agree with git on node-ignore's cases", () => {
  it('holds 75 cases', () => {
    expect(cases).toHaveLength(75);
  });
  cases.forEach((c, i) => {
    it(c.description, async () => {
      const name = `case${i}`;
      const dir = caseRepository(c, name);
      const expected = gitListing(dir);
      const globbed = await runtime.runTool('glob', { pattern: '**/*', path: name });
      expect(shownPaths(globbed.text, name)).toEqual(expected);
      const searched = await runtime.runTool('search_files', {
        regex: 'x',
        path: name,
        file_pattern: '*',
        output_mode: 'files_with_matches',
        head_limit: 5000,
      });
      expect(shownPaths(searched.text, name)).toEqual(expected);
      const listed = await runtime.runTool('list_files', { path: name, recursive: true });
      expect(shownPaths(listed.text, name).filter((p) => !p.endsWith('/'))).toEqual(expected);
      const top = shownPaths((await runtime.runTool('list_files', { path: name })).text, name);
      expect(top.filter((p) => !p.endsWith('/'))).toEqual(expected.filter((p) => !p.includes('/')));
      const topFolders = new Set(top.filter((p) => p.endsWith('/')));
      for (const p of expected.filter((p) => p.includes('/')))
        expect(topFolders).toContain(`${p.split('/')[0]}/`);
      const folders = readdirSync(dir, { withFileTypes: true }).filter(
        (e) => e.isDirectory() && e.name !== '.git',
      );
      for (const folder of folders) {
        expect(topFolders.has(`${folder.name}/`)).toBe(!gitIgnores(dir, folder.name));
      }
    });
  });
});
