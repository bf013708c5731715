import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AgentType, discoverAgentTypes } from '../../../src/config/agent_types/index.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const REVIEWER = `---
name: reviewer
description: Reviews a change for bugs
tools: [read_file, search_files]
disallowedTools: execute_command
model: anthropic/claude-haiku-4-5
mode: plan
maxTurns: 12
isolation: worktree
---

You review changes. MARKER-REVIEWER
`;

function discover(files: Record<string, string>, home: Record<string, string> = {}, includeWorkspace = true) {
  const workspace = writeTree(files);
  const documentsRoot = Object.keys(home).length > 0 ? writeTree(home) : tempDir();
  return { workspace, documentsRoot, ...discoverAgentTypes({ workspace, documentsRoot, includeWorkspace }) };
}

const named = (types: AgentType[], name: string) => types.find((t) => t.name === name);

describe('the built-in agent types', () => {
  it('come first: general with the parent’s tools, explore and plan read-only, explore on the small model', () => {
    const { types, warnings } = discover({});
    expect(types.map((t) => t.name)).toEqual(['general', 'explore', 'plan']);
    expect(types[0]).toMatchObject({ origin: 'built-in', source: 'built-in' });
    expect(types[0].tools).toBeUndefined();
    expect(types[0].readOnly).toBeUndefined();
    expect(types[1]).toMatchObject({ readOnly: true, model: 'small' });
    expect(types[2]).toMatchObject({ readOnly: true });
    expect(types[2].prompt).toMatch(/plan/i);
    expect(warnings).toEqual([]);
  });
});

describe('custom agent types', () => {
  it('read every field of a workspace file, with its body as the prompt', () => {
    const { types, workspace, warnings } = discover({ '.agents/agents/reviewer.md': REVIEWER });
    expect(warnings).toEqual([]);
    expect(named(types, 'reviewer')).toEqual({
      name: 'reviewer',
      description: 'Reviews a change for bugs',
      prompt: 'You review changes. MARKER-REVIEWER',
      tools: ['read_file', 'search_files'],
      disallowedTools: ['execute_command'],
      model: 'anthropic/claude-haiku-4-5',
      mode: 'plan',
      maxTurns: 12,
      isolation: 'worktree',
      source: join(workspace, '.agents/agents/reviewer.md'),
      origin: 'lathe',
    });
  });

  it('read the user’s own types from $LATHE_HOME/agents, named by the file when the name is left out', () => {
    const { types, documentsRoot } = discover(
      {},
      { 'agents/tester.md': '---\ndescription: Runs the tests\n---\nRun them.' },
    );
    expect(named(types, 'tester')).toMatchObject({
      origin: 'user',
      source: join(documentsRoot, 'agents/tester.md'),
      prompt: 'Run them.',
    });
  });

  it('let the workspace win over the user’s files and those over other tools’ files, saying which wins', () => {
    const file = (text: string) => `---\nname: twin\ndescription: ${text}\n---\n`;
    const { types, warnings, workspace, documentsRoot } = discover(
      { '.agents/agents/twin.md': file('workspace'), '.claude/agents/twin.md': file('claude') },
      { 'agents/twin.md': file('user') },
    );
    expect(types.filter((t) => t.name === 'twin')).toMatchObject([{ description: 'workspace' }]);
    const winner = join(workspace, '.agents/agents/twin.md');
    expect(warnings).toEqual([
      `${join(documentsRoot, 'agents/twin.md')}: the type "twin" is also defined by ${winner}, which wins`,
      `${join(workspace, '.claude/agents/twin.md')}: the type "twin" is also defined by ${winner}, which wins`,
    ]);
  });

  it('never replace a built-in type', () => {
    const { types, warnings } = discover({ '.agents/agents/explore.md': '---\ndescription: mine\n---\n' });
    expect(types.filter((t) => t.name === 'explore')).toMatchObject([{ origin: 'built-in' }]);
    expect(warnings[0]).toMatch(/explore\.md: "explore" is a built-in type, which wins/);
  });

  it('come from the user’s folder only when the workspace is not trusted, and say what was passed over', () => {
    const { types, warnings } = discover(
      { '.agents/agents/reviewer.md': REVIEWER, '.claude/agents/x.md': '---\ndescription: x\n---\n' },
      { 'agents/tester.md': '---\ndescription: Runs the tests\n---\n' },
      false,
    );
    expect(types.map((t) => t.name)).toEqual(['general', 'explore', 'plan', 'tester']);
    expect(warnings).toEqual([
      'this folder is not trusted: its agent types (.agents/agents, .claude/agents) are not read; run `lathe trust` or pass --trust',
    ]);
  });

  it('skip a README and files of other kinds', () => {
    const { types, warnings } = discover({
      '.agents/agents/README.md': '# Our agents',
      '.agents/agents/notes.txt': 'not an agent',
    });
    expect(types).toHaveLength(3);
    expect(warnings).toEqual([]);
  });
});

describe('an agent file that cannot be used', () => {
  it('is a warning naming the file and the field, and the other files still load', () => {
    const { types, warnings, workspace } = discover({
      '.agents/agents/a.md': '---\ndescription: turns\nmaxTurns: ten\n---\n',
      '.agents/agents/b.md': '---\nname: b\n---\nno description',
      '.agents/agents/c.md': 'no frontmatter at all',
      '.agents/agents/d.md': '---\ndescription: x\nthis line is no field\n---\n',
      '.agents/agents/e.md': '---\ndescription: tools\ntools: {read_file: true}\n---\n',
      '.agents/agents/f.md': '---\ndescription: model\nmodel: gpt-5\n---\n',
      '.agents/agents/ok.md': '---\ndescription: fine\n---\n',
    });
    const at = (name: string) => join(workspace, '.agents/agents', name);
    expect(warnings).toEqual([
      `${at('a.md')}: "maxTurns" must be a whole number of 1 or more: not loaded`,
      `${at('b.md')}: "description" is missing or empty: not loaded`,
      `${at('c.md')}: the frontmatter is missing: the file must start with a block between --- lines: not loaded`,
      expect.stringMatching(/d\.md: the frontmatter is not valid YAML \(.+\): not loaded$/),
      `${at('e.md')}: "tools" must be a list of tool names or a comma-separated string: not loaded`,
      `${at('f.md')}: "model" must be provider/model, "small" or "inherit", not "gpt-5": not loaded`,
    ]);
    expect(types.map((t) => t.name)).toEqual(['general', 'explore', 'plan', 'ok']);
  });

  it('warns about a field lathe does not know (a misspelt one does nothing otherwise)', () => {
    const { types, warnings } = discover({
      '.agents/agents/a.md': '---\ndescription: x\nmaxturns: 3\n---\n',
    });
    expect(named(types, 'a')?.maxTurns).toBeUndefined();
    expect(warnings[0]).toMatch(/a\.md: ignored unknown field maxturns \(known: name, description/);
  });

  it('is a warning when it is too large to be an agent definition', () => {
    const { warnings } = discover({
      '.agents/agents/big.md': `---\ndescription: big\n---\n${'x'.repeat(300_000)}`,
    });
    expect(warnings[0]).toMatch(/big\.md: the file is larger than 256 KB: not loaded/);
  });
});
