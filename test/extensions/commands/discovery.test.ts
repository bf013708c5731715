import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { discoverCommands } from '../../../src/config/commands/index.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/commands/workspace', import.meta.url));

function fixtureWorkspace(): string {
  const dir = tempDir('lathe-commands-');
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

const places = (workspace: string, home = tempDir('lathe-home-')) => ({
  workspace,
  documentsRoot: join(home, '.lathe'),
  home,
  includeWorkspace: true,
});

describe('discoverCommands', () => {
  it('finds every format, namespaces from folders, workflows and scripts', () => {
    const found = discoverCommands(places(fixtureWorkspace()));
    expect(found.commands.map((c) => `${c.kind} ${c.name}`)).toEqual([
      'command greet',
      'command branch',
      'command git:commit',
      'command plain',
      'command outside',
      'command review',
      'command summary',
      'workflow release',
      'workflow triage',
    ]);
    expect(found.workflows.map((w) => [w.name, w.description])).toEqual([
      ['release', 'Cut a release'],
      ['triage', 'Triage an issue'],
    ]);
    expect(found.scripts.map((s) => [s.name, s.runner])).toEqual([
      ['count', 'executable'],
      ['hello', 'node'],
    ]);
    expect(found.warnings).toEqual([]);
  });

  it('an untrusted workspace gives one line saying what waits for trust, and loads only the user’s', () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, '.claude/commands'), { recursive: true });
    writeFileSync(join(home, '.claude/commands/mine.md'), 'My own command.');
    const found = discoverCommands({ ...places(fixtureWorkspace(), home), includeWorkspace: false });
    expect(found.commands.map((c) => c.name)).toEqual(['mine']);
    expect(found.scripts).toEqual([]);
    expect(found.warnings).toEqual([
      '11 workspace commands and workflows wait for trust: lathe trust (or --trust)',
    ]);
  });

  it('the workspace wins a name, with a warning naming both files', () => {
    const home = tempDir('lathe-home-');
    const workspace = writeTree({ '.agents/commands/deploy.md': 'Deploy here.' });
    mkdirSync(join(home, '.lathe/commands'), { recursive: true });
    writeFileSync(join(home, '.lathe/commands/deploy.md'), 'Deploy mine.');
    const found = discoverCommands(places(workspace, home));
    expect(found.commands.map((c) => c.path)).toEqual([join(workspace, '.agents/commands/deploy.md')]);
    expect(found.warnings).toEqual([
      `${join(home, '.lathe/commands/deploy.md')}: "/deploy" is also defined by .agents/commands/deploy.md, which wins`,
    ]);
  });

  it('a file that cannot be a command is a warning naming the file and the field, never a silent drop', () => {
    const workspace = writeTree({
      '.agents/commands/Bad Name.md': 'x',
      '.agents/commands/empty.md': '---\ndescription: nothing\n---\n',
      '.agents/commands/open.md': '---\ndescription: no end\n',
      '.agents/commands/typed.md': '---\ndescription: [1, 2]\nmodel: sonnet4\n---\nDo it.',
      '.gemini/commands/broken.toml': 'prompt = "unclosed',
      '.gemini/commands/noprompt.toml': 'description = "no prompt"',
      '.agents/workflows/empty.md': '',
    });
    const found = discoverCommands(places(workspace));
    expect(found.commands.map((c) => c.name)).toEqual(['typed']);
    expect(found.warnings).toEqual([
      '.agents/commands/Bad Name.md: the name "Bad Name" must be lowercase letters, digits, - and _ (folders give namespaces): not loaded',
      '.agents/commands/empty.md: "body" is empty: the prompt goes after the frontmatter: not loaded',
      '.agents/commands/open.md: the frontmatter has no closing --- line: not loaded',
      '.agents/commands/typed.md: "description" must be text: left out',
      '.agents/commands/typed.md: "model" must be provider/model, "small" or "inherit", not "sonnet4": left out',
      expect.stringMatching(
        /^\.gemini\/commands\/broken\.toml: the TOML is not valid TOML \(.+\): not loaded$/,
      ),
      '.gemini/commands/noprompt.toml: "prompt" is missing or empty: not loaded',
      '.agents/workflows/empty.md: "body" is empty: list the steps after the frontmatter: not loaded',
    ]);
  });
});
