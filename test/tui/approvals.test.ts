import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveAllowRules } from '../../src/config/settings_rules.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { suggestRules } from '../../src/runtime/rule_suggestions.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import type { ApprovalRequest } from '../../src/tool/run_call.js';
import { editFile } from '../../src/tools/edit/edit_file.js';
import { executeCommand } from '../../src/tools/exec/execute_command.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';
import { repo } from './support/lathe_terminal.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const request = (tool: ApprovalRequest['tool'], input: unknown): ApprovalRequest => ({
  call: { id: 'c1', name: tool.name, input },
  tool,
  input,
  facts: NO_FACTS,
  reason: 'needs approval',
});

describe('rules that "don\'t ask again" offers', () => {
  it('cover each parsed subcommand of a shell command by its command and subcommand word', async () => {
    const s = await suggestRules(
      request(executeCommand, { command: 'npm test -- -u && git status' }),
      '/w',
      '/w',
    );
    expect(s.rules).toEqual(['execute_command(npm test)', 'execute_command(git status)']);
    expect(s.subcommands).toEqual(['npm test -- -u', 'git status']);
  });

  it('name the written file of a redirection, which a prefix rule would not cover', async () => {
    const s = await suggestRules(request(executeCommand, { command: 'echo hi > out.txt' }), '/w', '/w');
    expect(s.rules).toEqual(['execute_command(echo hi > out.txt)']);
  });

  it('cover the folder of an edit, for every editing tool', async () => {
    const s = await suggestRules(
      request(editFile, { path: 'src/app/x.ts', old_string: 'a', new_string: 'b' }),
      '/w',
      '/w',
    );
    expect(s.rules).toContain('edit_file(src/app/**)');
    expect(s.rules).toContain('write_to_file(src/app/**)');
  });
});

describe('saving a rule to settings', () => {
  it('adds to permissions.allow and keeps the rest of the file', async () => {
    const file = join(tempDir(), 'settings.json');
    await saveAllowRules(file, ['execute_command(npm test)']);
    const added = await saveAllowRules(file, ['execute_command(npm test)', 'read_file(src/**)']);
    expect(added).toEqual(['read_file(src/**)']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permissions: { allow: ['execute_command(npm test)', 'read_file(src/**)'] },
    });
  });

  it('refuses to overwrite a file that is not valid JSON', async () => {
    const dir = repo({ 'settings.json': '{ broken' });
    await expect(saveAllowRules(join(dir, 'settings.json'), ['x'])).rejects.toThrow(
      /settings.json:1:3: .*the rule was not saved/,
    );
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).toBe('{ broken');
  });
});

describe('approvals in the app', () => {
  testNeeds('bwrap')('"don\'t ask again this session" lets the same command run without asking', async () => {
    app = await renderApp([
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] },
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch two' } }] },
      { text: 'Both touched.' },
    ]);
    await app.submit('touch files');
    const asked = await app.waitFor('Run `touch one`?');
    expect(asked).toContain('$ touch one');
    app.write('2');
    await app.waitFor('Both touched.');
    expect(app.frame()).not.toContain('Run `touch two`?');
    expect(existsSync(join(app.dir, 'two'))).toBe(true);
  });

  testNeeds('bwrap')('shows the rule and the file before saving it to the project settings', async () => {
    app = await renderApp([
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] },
      { text: 'Touched.' },
    ]);
    await app.submit('touch');
    await app.waitFor('Run `touch one`?');
    app.write('p');
    const shown = await app.waitFor('These rules will be added to');
    const file = join(app.dir, '.agents', 'settings.json');
    expect(shown).toContain(file);
    expect(shown).toContain('+ execute_command(touch)');
    expect(existsSync(file)).toBe(false);
    app.write(KEYS.enter);
    await app.waitFor('Touched.');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permissions: { allow: ['execute_command(touch)'] },
    });
  });

  testNeeds('bwrap')(
    'approves edits without asking in the auto-accept mode, but still asks for commands',
    async () => {
      app = await renderApp(
        [
          { toolCalls: [{ name: 'write_to_file', input: { path: 'new.txt', content: 'x\n' } }] },
          { toolCalls: [{ name: 'execute_command', input: { command: 'touch y' } }] },
          { text: 'Ok.' },
        ],
        {},
      );
      app.write(KEYS.shiftTab);
      await app.waitFor('edits approved');
      await app.submit('write');
      await app.waitFor('Run `touch y`?');
      expect(readFileSync(join(app.dir, 'new.txt'), 'utf8')).toBe('x\n');
      app.write('1');
      await app.waitFor('Ok.');
    },
  );

  it('stops the step on Esc', async () => {
    app = await renderApp([{ toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] }]);
    await app.submit('touch');
    await app.waitFor('Run `touch one`?');
    app.write(KEYS.escape);
    await app.waitFor('Interrupted.');
    expect(existsSync(join(app.dir, 'one'))).toBe(false);
  });
});

describe('new_rule', () => {
  it('is refused outright in Plan mode under Strict Plan Mode', async () => {
    const runtime = createRuntime({
      cwd: tempDir(),
      documentsRoot: tempDir(),
      mode: 'plan',
      strictPlanMode: true,
    });
    const result = await runtime.runTool('new_rule', { name: 'style', content: 'Use tabs.' });
    expect(result).toMatchObject({ isError: true });
    expect(result.text).toMatch(/refused in Plan mode/);
  });

  it('/newrule has the model write .agents/rules/<name>.md, approved with its content in view', async () => {
    app = await renderApp([
      {
        toolCalls: [
          {
            name: 'new_rule',
            input: { name: 'testing', content: '# Testing\n\nRun `npm test` before done.' },
          },
        ],
      },
      { text: 'Rule written.' },
    ]);
    await app.submit('/newrule always run the tests');
    const shown = await app.waitFor('Write the rule .agents/rules/testing.md?');
    expect(shown).toContain('+ Run `npm test` before done.');
    // A protected path always asks: no "don't ask again" choices.
    expect(shown).not.toContain("don't ask again");
    expect(app.requests()[0].lastUserText).toMatch(/new_rule tool[\s\S]*always run the tests/);
    app.write('1');
    await app.waitFor('Rule written.');
    expect(readFileSync(join(app.dir, '.agents/rules/testing.md'), 'utf8')).toBe(
      '# Testing\n\nRun `npm test` before done.\n',
    );
  });
});
