import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Skill } from '../../../src/config/skills/index.js';
import { lathe } from '../../support/cli.js';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir, writeTree } from '../../support/runtime_fixtures.js';

afterEach(closeFakeServers);

const BROKEN_LINE =
  '.agents/skills/Broken/SKILL.md: name "Broken" may hold only lower-case letters, digits and single hyphens between them (e.g. "pdf-tools") and the folder\'s name "Broken" is no skill name either: not loaded';

/** A cloned repository with a good skill and a broken one; the user has one of their own. */
function setUp() {
  const dir = writeTree({
    '.agents/skills/review/SKILL.md':
      '---\nname: review\ndescription: Reviews a diff.\nallowed-tools: Bash(git diff:*), Read\n---\nReview.\n',
    '.agents/skills/Broken/SKILL.md': '---\nname: Broken\ndescription: x\n---\nx\n',
  });
  const home = writeTree({
    'skills/notes/SKILL.md': '---\nname: notes\ndescription: Writes notes.\nmodel: opus\n---\nWrite.\n',
  });
  return { dir, home, env: { LATHE_HOME: home, HOME: tempDir('home-') } };
}

describe('lathe skills list', () => {
  it('lists the user’s skills with their warnings, and says how many of the folder’s wait for trust', () => {
    const { dir, home, env } = setUp();
    const { code, stdout, stderr } = lathe(['skills', 'list'], { cwd: dir, env });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(
      [
        `notes  (${join(home, 'skills/notes/SKILL.md')})`,
        '  Writes notes.',
        '  used by: the model, /notes',
        '  warning: model is not a skill field lathe reads: ignored',
        '',
        'Not loaded or waiting:',
        '  2 workspace skills (.agents/skills) wait for trust: run `lathe trust` or pass --trust',
        '',
        '1 skill (1 with warnings), 1 other problem',
        '',
      ].join('\n'),
    );
  });

  it('reads the folder’s skills with --trust, and names the folder that is no skill', () => {
    const { dir, env } = setUp();
    const { code, stdout } = lathe(['skills', 'list', '--trust'], { cwd: dir, env });
    expect(code).toBe(0);
    expect(stdout).toContain(
      'review  (.agents/skills/review/SKILL.md)\n  Reviews a diff.\n' +
        '  used by: the model, /review · allowed-tools: execute_command(git diff:*), read_file\n',
    );
    expect(stdout).toContain(`Not loaded or waiting:\n  ${BROKEN_LINE}\n`);
    expect(stdout).toContain('2 skills (1 with warnings), 1 other problem');
  });

  it('prints every skill and every warning as JSON for scripts', () => {
    const { dir, home, env } = setUp();
    const { code, stdout } = lathe(['skills', 'list', '--json', '--trust', '--cwd', dir], { env });
    expect(code).toBe(0);
    const { skills, warnings } = JSON.parse(stdout) as { skills: Skill[]; warnings: string[] };
    expect(skills.map((s) => `${s.name}:${s.place}`)).toEqual(['review:workspace', 'notes:user']);
    expect(skills[0]).toMatchObject({
      path: join(dir, '.agents/skills/review/SKILL.md'),
      allowedTools: ['execute_command(git diff:*)', 'read_file'],
      userInvocable: true,
      modelInvocable: true,
      warnings: [],
    });
    expect(warnings).toEqual([
      BROKEN_LINE,
      `${join(home, 'skills/notes/SKILL.md')}: model is not a skill field lathe reads: ignored`,
    ]);
  });
});

describe('lathe -p with a skill', () => {
  testNeeds('bwrap')(
    'lists it for the model, loads it, and runs what its allowed-tools pre-approve',
    async () => {
      const home = writeTree({
        'skills/marker/SKILL.md':
          '---\nname: marker\ndescription: Leaves a marker file.\nallowed-tools: Bash(touch:*)\n---\nRun touch made-by-skill.\n',
        'skills/Bad/SKILL.md': '---\ndescription: no name\n---\nx\n',
      });
      const dir = tempDir();
      const run = await runHeadless(
        dir,
        [
          { toolCalls: [{ name: 'load_skill', input: { name: 'marker' } }] },
          { toolCalls: [{ name: 'execute_command', input: { command: 'touch made-by-skill' } }] },
          { text: 'Done.' },
        ],
        [],
        { home },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        `lathe: warning: ${join(home, 'skills/Bad/SKILL.md')}: name is missing and the folder's name "Bad" is no skill name either: not loaded`,
      );
      expect(run.requests[0].systemText).toContain('\n- marker: Leaves a marker file.');
      expect(run.requests[1].toolResults[0].content).toContain('Run touch made-by-skill.');
      expect(run.requests[2].toolResults[0].isError ?? false).toBe(false);
      expect(existsSync(join(dir, 'made-by-skill'))).toBe(true);
    },
  );
});
