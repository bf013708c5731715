import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverRules, RuleSet } from '../../../src/config/rules/index.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const names = (found: { rules: Array<{ name: string }> }) => found.rules.map((r) => r.name);

describe('rule discovery', () => {
  it('orders the user’s rules, then .agents/rules, then other tools’ files, each place by file name', () => {
    const home = writeTree({ 'rules/b.md': 'User B.', 'rules/a.md': 'User A.', 'rules/notes.txt': 'no' });
    const dir = writeTree({
      '.agents/rules/zeta.md': 'Zeta.',
      '.agents/rules/alpha.md': 'Alpha.',
      '.agents/rules/README.txt': 'not a rule',
      'GEMINI.md': 'Gemini.',
      'CLAUDE.md': 'Claude.',
      '.windsurfrules': 'Windsurf.',
      '.cursorrules': 'Cursor.',
      '.clinerules': 'Cline.',
    });
    const found = discoverRules({ workspace: dir, documentsRoot: home });
    expect(names(found)).toEqual([
      join(home, 'rules/a.md'),
      join(home, 'rules/b.md'),
      '.agents/rules/alpha.md',
      '.agents/rules/zeta.md',
      '.clinerules',
      '.cursorrules',
      '.windsurfrules',
      'CLAUDE.md',
      'GEMINI.md',
    ]);
    expect(found.rules.map((r) => r.text)).toEqual([
      'User A.',
      'User B.',
      'Alpha.',
      'Zeta.',
      'Cline.',
      'Cursor.',
      'Windsurf.',
      'Claude.',
      'Gemini.',
    ]);
    expect(found.rules.map((r) => r.place)).toEqual([
      'user',
      'user',
      'workspace',
      'workspace',
      'compatible',
      'compatible',
      'compatible',
      'compatible',
      'compatible',
    ]);
    expect(found.warnings).toEqual([]);
  });

  it('reads a .clinerules folder’s top-level rule files by name, not its workflows', () => {
    const dir = writeTree({
      '.clinerules/02-style.md': 'Style.',
      '.clinerules/01-tests.txt': 'Tests.',
      '.clinerules/image.png': 'x',
      '.clinerules/workflows/release.md': '1. Tag',
    });
    const found = discoverRules({ workspace: dir, documentsRoot: tempDir() });
    expect(names(found)).toEqual(['.clinerules/01-tests.txt', '.clinerules/02-style.md']);
  });

  it('reads other tools’ files from the working folder up to the repository root, nearest first', () => {
    const root = writeTree({
      'CLAUDE.md': 'Root Claude.',
      'pkg/CLAUDE.md': 'Package Claude.',
      'pkg/GEMINI.md': 'G.',
    });
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '..', `outside-${Date.now()}.md`), 'never');
    const found = discoverRules({ workspace: join(root, 'pkg'), documentsRoot: tempDir() });
    expect(names(found)).toEqual(['CLAUDE.md', 'GEMINI.md', '../CLAUDE.md']);
    expect(found.rules[2].text).toBe('Root Claude.');
  });

  it('takes `paths` (or `globs`) from the frontmatter and leaves the frontmatter out of the text', () => {
    const dir = writeTree({
      '.agents/rules/py.md': '---\npaths:\n  - "**/*.py"\n  - scripts/*.sh\n---\nUse type hints.\n',
      '.agents/rules/web.md': '---\nglobs: "src/{a,b}/*.ts, *.css"\n---\nWeb.',
      '.agents/rules/always.md': '---\ndescription: plain\nglobs: "*.ts"\nalwaysApply: true\n---\nAlways.',
    });
    const found = discoverRules({ workspace: dir, documentsRoot: tempDir() });
    expect(found.rules.map((r) => [r.name, r.paths, r.text])).toEqual([
      ['.agents/rules/always.md', undefined, 'Always.'],
      ['.agents/rules/py.md', ['**/*.py', 'scripts/*.sh'], 'Use type hints.'],
      ['.agents/rules/web.md', ['src/{a,b}/*.ts', '*.css'], 'Web.'],
    ]);
  });

  it('names the file and the field of a rule it cannot use, and goes on with the others', () => {
    const dir = writeTree({
      '.agents/rules/a-open.md': '---\npaths: "*.py"\nUse hints.',
      '.agents/rules/b-type.md': '---\npaths:\n  nested: true\n---\nText.',
      '.agents/rules/c-yaml.md': '---\npaths: "*.py\n}{\n---\nText.',
      '.agents/rules/d-good.md': 'Good.',
    });
    const found = discoverRules({ workspace: dir, documentsRoot: tempDir() });
    expect(names(found)).toEqual(['.agents/rules/d-good.md']);
    expect(found.warnings).toHaveLength(3);
    expect(found.warnings[0]).toBe(
      '.agents/rules/a-open.md: the frontmatter has no closing --- line: not loaded',
    );
    expect(found.warnings[1]).toBe(
      '.agents/rules/b-type.md: "paths" must be a glob or a list of globs (e.g. "src/**/*.ts"): not loaded',
    );
    expect(found.warnings[2]).toMatch(
      /^\.agents\/rules\/c-yaml\.md: the frontmatter is not valid YAML \(.+\): not loaded$/,
    );
  });

  it('marks a CLAUDE.md that is the AGENTS.md beside it (a link or a copy) as the same', () => {
    const dir = writeTree({ 'AGENTS.md': 'Use tabs.\n', 'GEMINI.md': 'Use tabs.' });
    symlinkSync('AGENTS.md', join(dir, 'CLAUDE.md'));
    const rules = new RuleSet({ workspace: dir, documentsRoot: tempDir() });
    expect(rules.statuses().map((s) => [s.rule.name, s.state, s.active])).toEqual([
      ['CLAUDE.md', { kind: 'duplicate', of: join(dir, 'AGENTS.md') }, false],
      ['GEMINI.md', { kind: 'duplicate', of: join(dir, 'AGENTS.md') }, false],
    ]);
  });
});

describe('the session’s rules', () => {
  const setUp = (disabled: string[] = []) => {
    const dir = writeTree({
      '.agents/rules/py.md': '---\npaths: ["**/*.py"]\n---\nPython rule.',
      '.agents/rules/docs.md': '---\npaths: docs/**\n---\nDocs rule.',
      '.agents/rules/style.md': 'Style rule.',
      'CLAUDE.md': 'Claude rule.',
    });
    return { dir, rules: new RuleSet({ workspace: dir, documentsRoot: tempDir() }, disabled) };
  };
  const activeNames = (rules: RuleSet) => rules.active().map((r) => r.name);

  it('keeps a conditional rule waiting until a matching file is read, then says which file matched', () => {
    const { dir, rules } = setUp();
    expect(activeNames(rules)).toEqual(['.agents/rules/style.md', 'CLAUDE.md']);
    rules.touch(join(dir, 'notes.txt'), dir);
    rules.touch(join(dir, 'docs.txt'), dir);
    expect(activeNames(rules)).toEqual(['.agents/rules/style.md', 'CLAUDE.md']);
    rules.touch(join(dir, 'src/app/main.py'), dir);
    expect(activeNames(rules)).toEqual(['.agents/rules/py.md', '.agents/rules/style.md', 'CLAUDE.md']);
    const py = rules.statuses().find((s) => s.rule.name === '.agents/rules/py.md');
    expect(py?.state).toEqual({ kind: 'matched', file: 'src/app/main.py' });
    const docs = rules.statuses().find((s) => s.rule.name === '.agents/rules/docs.md');
    expect(docs?.state).toEqual({ kind: 'waiting', globs: ['docs/**'] });
  });

  it('matches a glob without a slash against the file name in any folder', () => {
    const dir = writeTree({ '.agents/rules/css.md': '---\npaths: "*.css"\n---\nCSS.' });
    const rules = new RuleSet({ workspace: dir, documentsRoot: tempDir() });
    rules.touch('web/theme/site.css', dir);
    expect(activeNames(rules)).toEqual(['.agents/rules/css.md']);
  });

  it('matches a glob with a slash against the path from the workspace, beside globs without one', () => {
    const dir = writeTree({
      '.agents/rules/special.md': '---\npaths: ["*.css", "src/special/**"]\n---\nSpecial.',
    });
    const rules = new RuleSet({ workspace: dir, documentsRoot: tempDir() });
    rules.touch('lib/special/x.ts', dir);
    expect(activeNames(rules)).toEqual([]);
    rules.touch(join(dir, 'src/special/deep/x.ts'), dir);
    expect(rules.statuses()[0].state).toEqual({ kind: 'matched', file: 'src/special/deep/x.ts' });
  });

  it('ignores files outside the folder it works in', () => {
    const { dir, rules } = setUp();
    rules.touch(join(dir, '..', 'elsewhere', 'x.py'), dir);
    rules.touch('/etc/x.py', dir);
    expect(activeNames(rules)).not.toContain('.agents/rules/py.md');
  });

  it('leaves out the rules settings disable, by name, file name or file name without .md', () => {
    const { rules } = setUp(['.agents/rules/style.md', 'CLAUDE.md', 'py']);
    expect(rules.statuses().map((s) => [s.rule.name, s.state.kind])).toEqual([
      ['.agents/rules/docs.md', 'waiting'],
      ['.agents/rules/py.md', 'disabled'],
      ['.agents/rules/style.md', 'disabled'],
      ['CLAUDE.md', 'disabled'],
    ]);
    expect(activeNames(rules)).toEqual([]);
    expect(rules.warnings).toEqual([]);
  });

  it('warns about a disabled name that names no rule', () => {
    const { rules } = setUp(['stlye']);
    expect(rules.warnings).toEqual(['rules.disabled: "stlye" names no rule here (see /rules)']);
  });

  it('picks up a rule written during the session when it reads the files again', () => {
    const { dir, rules } = setUp();
    rules.touch('lib/tool.rb', dir);
    writeFileSync(join(dir, '.agents/rules/ruby.md'), '---\npaths: "**/*.rb"\n---\nRuby rule.');
    expect(activeNames(rules)).not.toContain('.agents/rules/ruby.md');
    rules.refresh();
    expect(activeNames(rules)).toContain('.agents/rules/ruby.md');
  });
});
