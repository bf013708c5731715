import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mergeSettings } from '../../src/config/settings.js';
import { RulePermissionEngine } from '../../src/permission/engine.js';
import { classifyShellCommand } from '../../src/permission/shell/index.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { pathRuleTools } from '../../src/tool/kinds.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

// Names that only start with two dots are ordinary names inside the workspace.
const FILES = { '..notes': 'n\n', '...': 'd\n', '..foo/bar': 'b\n', 'a.txt': 'a\n' };

function engine(workspace = tempDir()) {
  return new RulePermissionEngine({
    settings: mergeSettings([]),
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    cwd: workspace,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
}

describe('the permission judge', () => {
  it.each(['..notes', '...', '..foo/bar'])('reads %s as inside the workspace', (path) => {
    expect(engine().decidePath('read_file', 'read', path)).toEqual({ behavior: 'allow' });
  });
  it.each(['..notes', '..foo/bar'])('asks to edit %s as an edit inside, not outside', (path) => {
    expect(engine().decidePath('write_to_file', 'edit', path)).toMatchObject({
      behavior: 'ask',
      category: 'edit',
    });
  });
  it('still counts a `..` segment as outside', () => {
    const workspace = join(tempDir(), 'w');
    mkdirSync(workspace);
    writeFileSync(join(workspace, '..x'), '');
    expect(engine(workspace).decidePath('read_file', 'read', '../x')).toMatchObject({
      category: 'readOutside',
    });
    expect(engine(workspace).decidePath('read_file', 'read', 'sub/../../x')).toMatchObject({
      category: 'readOutside',
    });
  });
  it('lets a read-only command read such names without asking', async () => {
    const workspace = writeTree(FILES);
    const e = engine(workspace);
    for (const command of ['cat ..notes', 'cat ...', 'head ..foo/bar']) {
      const classified = await classifyShellCommand(command);
      const decision = e.decide({
        tool: 'execute_command',
        readOnly: classified.readOnly,
        subject: {
          kind: 'execute',
          subjects: classified.subcommands.map((s) => s.text),
          commands: classified.subcommands,
          readOnlyCommand: classified.readOnly,
        },
        strictPlanRefused: false,
      });
      expect(decision, command).toEqual({ behavior: 'allow' });
    }
  });
});

describe('the tools', () => {
  const made: Runtime[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((rt) => rt.dispose()));
  });
  const runtime = () => {
    const dir = writeTree(FILES);
    const rt = createRuntime({ cwd: dir, documentsRoot: tempDir('lathe-home-'), env: {} });
    made.push(rt);
    return rt;
  };

  it('read_file reads them with no one to ask', async () => {
    const rt = runtime();
    for (const path of ['..notes', '...', '..foo/bar']) {
      const result = await rt.runTool('read_file', { path });
      expect(result.isError, result.text).toBe(false);
    }
  });
  it('glob shows them relative to the workspace', async () => {
    const text = (await runtime().runTool('glob', { pattern: '**/*' })).text;
    expect(text.split('\n').sort()).toEqual(['...', '..foo/bar', '..notes', 'a.txt']);
  });
  it('list_files and search_files show them relative too', async () => {
    const rt = runtime();
    expect((await rt.runTool('list_files', {})).text).toBe('...\n..foo/\n..notes\na.txt');
    const found = (await rt.runTool('search_files', { regex: '^n$', output_mode: 'files_with_matches' }))
      .text;
    expect(found).toBe('..notes');
  });
});
