// What glob, search_files and list_files leave out: .git always, ignored files unless asked,
// and files a deny rule closes even then; in a repository git's own rules decide.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { lathe } from '../support/cli.js';
import { git, gitListing, gitRepo } from '../support/git_trees.js';
import { tempDir } from '../support/runtime_fixtures.js';

function runtimeIn(dir: string, settings?: SettingsLayer) {
  return createRuntime({
    cwd: dir,
    documentsRoot: tempDir('lathe-home-'),
    ...(settings ? { settings } : {}),
  });
}

/** Every path-like line of a tool's answer (notes after a blank line left out). */
function lines(text: string): string[] {
  return text
    .split('\n\n')[0]
    .split('\n')
    .filter((l) => l !== '');
}

/** The three tools' answers that list or search everything below the working folder. */
async function everything(dir: string, extra: Record<string, unknown> = {}, settings?: SettingsLayer) {
  const runtime = runtimeIn(dir, settings);
  const glob = await runtime.runTool('glob', { pattern: '**/*', ...extra });
  const search = await runtime.runTool('search_files', {
    regex: '.',
    file_pattern: '*',
    output_mode: 'files_with_matches',
    head_limit: 5000,
    ...extra,
  });
  const list = await runtime.runTool('list_files', { recursive: true, ...extra });
  return { glob: lines(glob.text), search: lines(search.text), list: lines(list.text) };
}

/** The files (folders left out) each of the three tools shows, sorted: all three must equal `expected`. */
function expectEachListed(found: Awaited<ReturnType<typeof everything>>, expected: string[]): void {
  const files = (listed: string[]) => listed.filter((p) => !p.endsWith('/')).sort();
  expect({ glob: files(found.glob), search: files(found.search), list: files(found.list) }).toEqual({
    glob: expected,
    search: expected,
    list: expected,
  });
}

const insideGit = (path: string) => path === '.git' || path.startsWith('.git/') || path.includes('/.git/');

describe('.git is never listed or searched', () => {
  it('in a repository, with a worktree and a nested repository, asked for ignored files or not', async () => {
    const dir = gitRepo({ 'a.ts': 'a\n', 'nested/b.ts': 'b\n', '.gitignore': 'out/\n' });
    git(dir, ['add', '.']);
    git(dir, ['commit', '-qm', 'one']);
    git(join(dir, 'nested'), ['init', '-q']);
    git(dir, ['worktree', 'add', '-q', 'tree']);
    for (const extra of [{}, { include_ignored: true }]) {
      const found = await everything(dir, extra);
      for (const listed of [found.glob, found.search, found.list]) {
        expect(listed).toContain('a.ts');
        expect(listed.some((p) => p.endsWith('b.ts'))).toBe(true);
        expect(listed.filter((p) => insideGit(p) || p.endsWith('/.git'))).toEqual([]);
      }
    }
  });
  it('outside a repository too', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), '[core]\n');
    mkdirSync(join(dir, 'sub', '.git'), { recursive: true });
    writeFileSync(join(dir, 'sub', '.git', 'HEAD'), 'ref\n');
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    const found = await everything(dir, { include_ignored: true });
    for (const listed of [found.glob, found.search, found.list]) {
      expect(listed.filter((p) => p.includes('.git'))).toEqual([]);
      expect(listed).toContain('a.txt');
    }
  });
  it('a path into .git, or a link to it, is refused', async () => {
    const dir = gitRepo({ 'a.ts': 'a\n' });
    symlinkSync(join(dir, '.git'), join(dir, 'gitdata'));
    const runtime = runtimeIn(dir);
    for (const path of ['.git', '.git/hooks', 'gitdata']) {
      const results = [
        await runtime.runTool('list_files', { path }),
        await runtime.runTool('glob', { pattern: '*', path }),
        await runtime.runTool('search_files', { regex: 'core', path }),
      ];
      for (const r of results) {
        expect(r.isError).toBe(true);
        expect(r.text).toMatch(/inside a \.git folder/);
      }
    }
  });
});

describe('ignored files', () => {
  const files = {
    '.gitignore': '.env\nnode_modules/\n',
    '.env': 'TOKEN=1\n',
    'node_modules/x/i.js': 'x\n',
    'a.ts': 'a\n',
  };
  it('are left out unless include_ignored asks for them', async () => {
    const dir = gitRepo(files);
    const hidden = await everything(dir);
    for (const listed of [hidden.glob, hidden.search, hidden.list]) {
      expect(listed.filter((p) => p.includes('.env') || p.includes('node_modules'))).toEqual([]);
      expect(listed).toContain('a.ts');
    }
    const top = await runtimeIn(dir).runTool('list_files', {});
    expect(lines(top.text)).toEqual(['.gitignore', 'a.ts']);
    const shown = await everything(dir, { include_ignored: true });
    for (const listed of [shown.glob, shown.search, shown.list]) {
      expect(listed).toContain('.env');
      expect(listed).toContain('node_modules/x/i.js');
    }
  });
  it('outside a repository the .gitignore files still hold', async () => {
    const dir = tempDir();
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), content);
    }
    const hidden = await everything(dir);
    for (const listed of [hidden.glob, hidden.search, hidden.list])
      expect(listed.sort()).toEqual(['.gitignore', 'a.ts']);
    const shown = await everything(dir, { include_ignored: true });
    for (const listed of [shown.glob, shown.search, shown.list]) expect(listed).toContain('.env');
  });
  it('a deny rule still hides a file when ignored files are asked for', async () => {
    const dir = gitRepo(files);
    const denied = { permissions: { deny: ['read_file(**/.env)'] } };
    const found = await everything(dir, { include_ignored: true }, denied);
    for (const listed of [found.glob, found.search, found.list]) {
      expect(listed).not.toContain('.env');
      expect(listed).toContain('node_modules/x/i.js');
    }
    const search = await runtimeIn(dir, denied).runTool('search_files', {
      regex: 'TOKEN',
      include_ignored: true,
    });
    expect(search.text).toMatch(/^No matches/);
  });
  it('a folder git ignores says so when asked about', async () => {
    const dir = gitRepo(files);
    const runtime = runtimeIn(dir);
    const glob = await runtime.runTool('glob', { pattern: '**/*.js', path: 'node_modules' });
    expect(glob.text).toMatch(
      /^No files match .*node_modules is ignored by git: include_ignored: true looks inside it/,
    );
    const search = await runtime.runTool('search_files', { regex: 'x', path: 'node_modules' });
    expect(search.text).toMatch(/node_modules is ignored by git/);
    const list = await runtime.runTool('list_files', { path: 'node_modules', recursive: true });
    expect(list.text).toMatch(/node_modules is ignored by git/);
    const asked = await runtime.runTool('glob', {
      pattern: '**/*.js',
      path: 'node_modules',
      include_ignored: true,
    });
    expect(asked.text).toBe('node_modules/x/i.js');
  });
});

describe("git's rules decide in a repository", () => {
  it('a tracked file that matches an ignore pattern is listed and searched, as git lists it', async () => {
    const dir = gitRepo({
      '.gitignore': 'dist/\n*.log\n',
      'dist/keep.js': 'x\n',
      'dist/gen.js': 'x\n',
      'keep.log': 'x\n',
      'b.log': 'x\n',
    });
    git(dir, ['add', '-f', 'dist/keep.js', 'keep.log', '.gitignore']);
    const expected = gitListing(dir);
    expect(expected).toEqual(['.gitignore', 'dist/keep.js', 'keep.log']);
    const found = await everything(dir);
    expectEachListed(found, expected);
    const top = await runtimeIn(dir).runTool('list_files', {});
    expect(lines(top.text)).toEqual(['.gitignore', 'dist/', 'keep.log']);
  });
  it('nested .gitignore files, negation and .git/info/exclude', async () => {
    const dir = gitRepo({
      '.gitignore': '*.tmp\n!keep.tmp\n',
      'pkg/.gitignore': 'gen/\n!gen.txt\n',
      'pkg/gen/a.ts': 'x\n',
      'pkg/gen.txt': 'x\n',
      'a.tmp': 'x\n',
      'keep.tmp': 'x\n',
      'secret.key': 'x\n',
      'src/a.ts': 'x\n',
    });
    writeFileSync(join(dir, '.git', 'info', 'exclude'), '*.key\n');
    const expected = gitListing(dir);
    expect(expected).toEqual(['.gitignore', 'keep.tmp', 'pkg/.gitignore', 'pkg/gen.txt', 'src/a.ts']);
    const found = await everything(dir);
    expectEachListed(found, expected);
  });
  it('the global excludes file ($XDG_CONFIG_HOME/git/ignore), through lathe tool', () => {
    const dir = gitRepo({ 'a.ts': 'x\n', 'notes.local': 'x\n' });
    const home = tempDir('lathe-xdg-');
    mkdirSync(join(home, 'git'));
    writeFileSync(join(home, 'git', 'ignore'), '*.local\n');
    const env = { XDG_CONFIG_HOME: home, LATHE_HOME: tempDir('lathe-home-') };
    expect(gitListing(dir, env)).toEqual(['a.ts']);
    for (const [tool, input] of [
      ['glob', { pattern: '**/*' }],
      ['search_files', { regex: 'x', output_mode: 'files_with_matches' }],
      ['list_files', { recursive: true }],
    ] as const) {
      const r = lathe(['tool', tool, '--input', JSON.stringify(input), '--cwd', dir], { env });
      expect(r.stdout.trim()).toBe('a.ts');
    }
  });
  it('a nested repository is listed by its own rules, and a submodule too', async () => {
    const dir = gitRepo({ '.gitignore': '*.log\n', 'top.ts': 'x\n' });
    const lib = gitRepo({ '.gitignore': '*.tmp\n', 'lib.ts': 'x\n', 'x.tmp': 'x\n', 'y.log': 'x\n' });
    git(lib, ['add', '.']);
    git(lib, ['commit', '-qm', 'lib']);
    git(dir, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'sub']);
    const clone = join(dir, 'vendor', 'clone');
    mkdirSync(join(dir, 'vendor'));
    git(dir, ['clone', '-q', lib, clone]);
    writeFileSync(join(clone, 'z.tmp'), 'x\n');
    writeFileSync(join(clone, 'new.ts'), 'x\n');
    const found = await everything(dir);
    const expected = ['.gitignore', '.gitmodules', 'sub/.gitignore', 'sub/lib.ts', 'sub/y.log', 'top.ts'];
    expected.push(
      'vendor/clone/.gitignore',
      'vendor/clone/lib.ts',
      'vendor/clone/new.ts',
      'vendor/clone/y.log',
    );
    expectEachListed(found, expected.sort());
  });
  it('a repository added without .gitmodules is left out whole, as git lists only its gitlink', async () => {
    const dir = gitRepo({ 'top.ts': 'x\n' });
    const inner = join(dir, 'inner');
    mkdirSync(inner);
    writeFileSync(join(inner, 'in.ts'), 'x\n');
    git(inner, ['init', '-q']);
    git(inner, ['add', '.']);
    git(inner, ['commit', '-qm', 'inner']);
    git(dir, ['-c', 'advice.addEmbeddedRepo=false', 'add', 'top.ts', 'inner']);
    expect(gitListing(dir)).toEqual(['inner', 'top.ts']);
    const found = await everything(dir);
    expectEachListed(found, ['top.ts']);
  });
});
