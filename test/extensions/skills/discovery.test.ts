import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitToolList } from '../../../src/config/skills/allowed_tools.js';
import { allowedToolRules, discoverSkills } from '../../../src/config/skills/index.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

const skill = (name: string, description = `The ${name} skill.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.\n`;

/** A workspace, a LATHE_HOME and a home folder, each with skills in its places. */
function fourPlaces() {
  const workspace = writeTree({
    '.agents/skills/shared/SKILL.md': skill('shared', 'The workspace’s own.'),
    '.agents/skills/lint/SKILL.md': skill('lint'),
    '.claude/skills/review/SKILL.md': skill('review'),
  });
  const documentsRoot = writeTree({
    'skills/shared/SKILL.md': skill('shared', 'The user’s.'),
    'skills/notes/SKILL.md': skill('notes'),
  });
  const home = writeTree({ '.claude/skills/pdf/SKILL.md': skill('pdf') });
  return { workspace, documentsRoot, home };
}

describe('skill places', () => {
  it('finds skills in .agents/skills, .claude/skills, $LATHE_HOME/skills and ~/.claude/skills, workspace first', () => {
    const places = fourPlaces();
    const { skills } = discoverSkills({ ...places, includeWorkspace: true });
    expect(skills.map((s) => `${s.name}:${s.place}`)).toEqual([
      'lint:workspace',
      'shared:workspace',
      'review:workspace-claude',
      'notes:user',
      'pdf:user-claude',
    ]);
    expect(skills[1].description).toBe('The workspace’s own.');
  });

  it('lets the workspace win a name found twice, and says which file lost', () => {
    const places = fourPlaces();
    const { warnings } = discoverSkills({ ...places, includeWorkspace: true });
    expect(warnings).toEqual([
      `${join(places.documentsRoot, 'skills/shared/SKILL.md')}: the skill "shared" is also in .agents/skills/shared/SKILL.md, which wins: not loaded`,
    ]);
  });

  it('reads no workspace skill in a folder that is not trusted, says how many wait, and keeps the user’s', () => {
    const places = fourPlaces();
    const { skills, warnings } = discoverSkills({ ...places, includeWorkspace: false });
    expect(skills.map((s) => s.name)).toEqual(['notes', 'shared', 'pdf']);
    expect(skills[1].description).toBe('The user’s.');
    expect(warnings).toEqual([
      '3 workspace skills (.agents/skills, .claude/skills) wait for trust: run `lathe trust` or pass --trust',
    ]);
  });

  it('shows a file under the home folder as ~/…', () => {
    const home = writeTree({ '.claude/skills/Bad/SKILL.md': '---\ndescription: x\n---\nx\n' });
    const { warnings } = discoverSkills({
      workspace: tempDir(),
      documentsRoot: tempDir(),
      home,
      includeWorkspace: true,
    });
    expect(warnings).toEqual([
      `~/.claude/skills/Bad/SKILL.md: name is missing and the folder's name "Bad" is no skill name either: not loaded`,
    ]);
  });

  it('refuses a SKILL.md past 256 KB with a warning', () => {
    const workspace = writeTree({
      '.agents/skills/huge/SKILL.md': `${skill('huge')}${'x'.repeat(300 * 1024)}`,
    });
    const { skills, warnings } = discoverSkills({
      workspace,
      documentsRoot: tempDir(),
      home: tempDir(),
      includeWorkspace: true,
    });
    expect(skills).toEqual([]);
    expect(warnings).toEqual(['.agents/skills/huge/SKILL.md: the file is larger than 256 KB: not loaded']);
  });
});

describe('allowed-tools', () => {
  it('splits on spaces (Agent Skills) and commas (Claude Code), not inside a pattern', () => {
    expect(splitToolList('Bash(git add:*) Read')).toEqual(['Bash(git add:*)', 'Read']);
    expect(splitToolList('Read, Grep,Glob')).toEqual(['Read', 'Grep', 'Glob']);
  });

  it('maps Claude Code and MCP names to lathe rules and keeps lathe’s own', () => {
    const isTool = (name: string) => ['read_file', 'execute_command', 'glob'].includes(name);
    expect(
      allowedToolRules(
        'Bash(npm run test:*) Read glob mcp__github__create_issue execute_command(make)',
        isTool,
      ),
    ).toEqual({
      rules: [
        'execute_command(npm run test:*)',
        'read_file',
        'glob',
        'github__create_issue',
        'execute_command(make)',
      ],
      problems: [],
    });
  });

  it('leaves out a name that stands for no tool, saying so', () => {
    expect(allowedToolRules(['Frobnicate', 'Read'], () => false)).toEqual({
      rules: ['read_file'],
      problems: ['allowed-tools "Frobnicate" names no lathe tool: left out'],
    });
  });
});
