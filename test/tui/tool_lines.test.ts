import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editFile } from '../../src/tools/edit/edit_file.js';
import { executeCommand } from '../../src/tools/exec/execute_command.js';
import { readFileTool } from '../../src/tools/files/read_file.js';
import { summarizeRules } from '../../src/tui/prompt/menus.js';
import { shownPath, toolTitle } from '../../src/tui/render/tool_line.js';
import { approvalNote, approvalQuestion } from '../../src/tui/session/approval_words.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const count = (text: string, part: string) => text.split(part).length - 1;

describe('paths in tool lines', () => {
  it('are shown relative to the working folder when inside it, as given outside it', () => {
    expect(shownPath('/w/src/a.ts', '/w')).toBe('src/a.ts');
    expect(shownPath('/w', '/w')).toBe('.');
    expect(shownPath('/etc/hosts', '/w')).toBe('/etc/hosts');
    expect(shownPath('/w-other/a.ts', '/w')).toBe('/w-other/a.ts');
    expect(shownPath('src/a.ts', '/w')).toBe('src/a.ts');
    expect(toolTitle('search_files', { regex: 'TODO', path: '/w/src' }, '/w')).toEqual({
      verb: 'Search',
      detail: '/TODO/ in src',
    });
    expect(
      toolTitle('apply_patch', { input: '*** Begin Patch\n*** Update File: /w/a.ts\n*** End Patch' }, '/w'),
    ).toEqual({ verb: 'Patch', detail: 'a.ts' });
  });

  it('show a call that named an absolute path inside the workspace by its relative path', async () => {
    app = await renderApp([], { files: { 'src/deep/notes.md': 'hello\n' } });
    const absolute = join(app.dir, 'src/deep/notes.md');
    app.server.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: absolute } }] },
      { text: 'Read it.' },
    );
    await app.submit('read the notes');
    const shown = await app.waitFor('Read it.');
    const line = shown.split('\n').find((l) => l.includes('Read '));
    expect(line).toMatch(/✓ Read src\/deep\/notes\.md\b/);
    expect(line).not.toContain(app.dir);
  });
});

describe("an edit's diff", () => {
  it('is shown once, at its approval, and the finished tool line only counts the change', async () => {
    app = await renderApp(
      [
        {
          toolCalls: [{ name: 'read_file', input: { path: 'src/config.ts' } }],
        },
        {
          toolCalls: [
            {
              name: 'edit_file',
              input: { path: 'src/config.ts', old_string: '"1.0"', new_string: '"2.0"' },
            },
          ],
        },
        { text: 'Bumped.' },
      ],
      { files: { 'src/config.ts': 'export const VERSION = "1.0";\n' } },
    );
    await app.submit('bump it');
    await app.waitFor('Edit src/config.ts?');
    app.write('1');
    const shown = await app.waitFor('Bumped.');
    expect(readFileSync(join(app.dir, 'src/config.ts'), 'utf8')).toContain('"2.0"');
    expect(count(shown, '1 + export const VERSION = "2.0";')).toBe(1);
    expect(count(shown, '1 - export const VERSION = "1.0";')).toBe(1);
    expect(shown).toMatch(/Edit src\/config\.ts.*\n\s+└ Edited src\/config\.ts \(1 replacement\)\. \+1 -1/);
  });

  it('is shown in the tool line when the edit ran without asking', async () => {
    app = await renderApp(
      [
        { toolCalls: [{ name: 'write_to_file', input: { path: 'old.txt', content: 'fresh line\n' } }] },
        { text: 'Written.' },
      ],
      { files: { 'old.txt': 'stale line\n' }, settings: { approvals: { edit: 'allow' } } },
    );
    await app.submit('write it');
    const shown = await app.waitFor('Written.');
    expect(count(shown, '+fresh line')).toBe(1);
    expect(count(shown, '-stale line')).toBe(1);
  });
});

describe('approvals in plain words', () => {
  const ask = (tool: { name: string }, input: unknown, reason: string, category?: string) =>
    ({ tool, input, reason, category }) as unknown as Parameters<typeof approvalQuestion>[0];

  it('ask what the call does, not which tool and category need approval', () => {
    const edit = ask(editFile, { path: '/w/src/x.ts' }, 'edit_file needs approval (category edit)', 'edit');
    expect(approvalQuestion(edit, '/w')).toBe('Edit src/x.ts?');
    expect(approvalNote(edit, '/w')).toBeUndefined();
    const run = ask(
      executeCommand,
      { command: 'npm test' },
      'execute_command needs approval (category executeAll)',
      'executeAll',
    );
    expect(approvalQuestion(run, '/w')).toBe('Run `npm test`?');
    const outside = ask(
      readFileTool,
      { path: '/etc/hosts' },
      'read_file needs approval (category readOutside)',
      'readOutside',
    );
    expect(approvalQuestion(outside, '/w')).toBe('Read /etc/hosts (outside the workspace)?');
  });

  it('say why when it is more than the ordinary ask', () => {
    expect(
      approvalNote(ask(editFile, {}, '/w/.git/config is inside .git (protected: always asks)', 'edit'), '/w'),
    ).toBe('.git/config is inside .git: protected paths always ask.');
    expect(
      approvalNote(
        ask(editFile, {}, 'edit_file changes the workspace and lathe is in Plan mode', 'edit'),
        '/w',
      ),
    ).toBe('lathe is in Plan mode: changes ask first.');
    expect(
      approvalNote(
        ask(
          executeCommand,
          {},
          'rule execute_command(git push) asks (/w/.agents/settings.json)',
          'executeAll',
        ),
        '/w',
      ),
    ).toBe('A rule asks first: execute_command(git push) (from /w/.agents/settings.json).');
  });

  it('name what "don\'t ask again" will allow in words', () => {
    expect(summarizeRules(['execute_command(npm test)', 'execute_command(git status)'])).toBe(
      '`npm test`, `git status` commands',
    );
    expect(summarizeRules(['edit_file(src/**)', 'write_to_file(src/**)', 'apply_patch(src/**)'])).toBe(
      'edits in src/**',
    );
    expect(summarizeRules(['mcp__docs__search'])).toBe('mcp__docs__search');
  });

  it('asks about a read outside the workspace by its path', async () => {
    const outside = join(tempDir('lathe-outside-'), 'hosts.txt');
    writeFileSync(outside, '127.0.0.1 localhost\n');
    app = await renderApp([
      { toolCalls: [{ name: 'read_file', input: { path: outside } }] },
      { text: 'Done.' },
    ]);
    await app.submit('read it');
    const shown = await app.waitFor(`Read ${outside} (outside the workspace)?`);
    expect(shown).not.toMatch(/needs approval|category/);
    app.write('1');
    await app.waitFor('Done.');
  });
});

describe('Esc at an approval', () => {
  it('keeps the call in the conversation as interrupted, so the model sees it did not run', async () => {
    app = await renderApp([
      { toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] },
      { text: 'I will not run it again.' },
    ]);
    await app.submit('touch');
    await app.waitFor('Run `touch one`?');
    app.write(KEYS.escape);
    await app.waitFor('Interrupted.');
    await app.submit('what happened?');
    await app.waitFor('I will not run it again.');
    const next = app.requests()[1];
    expect(next.toolResults).toHaveLength(1);
    expect(next.toolResults[0]).toMatchObject({ name: 'execute_command', isError: true });
    expect(next.toolResults[0].content).toMatch(/^Interrupted by the user: execute_command was not run/);
    expect(next.lastUserText).toBe('what happened?');
  });

  testNeeds('bwrap')('keeps a call stopped while it ran as interrupted too', async () => {
    app = await renderApp(
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo has-begun; sleep 30' } }] },
        { text: 'Stopped, as you asked.' },
      ],
      { settings: { approvals: { executeAll: 'allow' } } },
    );
    await app.submit('wait');
    // Its first line in the live tail: the command runs.
    await app.waitFor(/└ has-begun/);
    app.write(KEYS.escape);
    await app.waitFor('Interrupted.');
    await app.submit('go on');
    await app.waitFor('Stopped, as you asked.');
    const next = app.requests()[1];
    expect(next.toolResults).toHaveLength(1);
    expect(next.toolResults[0]).toMatchObject({ name: 'execute_command', isError: true });
    expect(next.toolResults[0].content).toMatch(/has-begun[\s\S]*Interrupted/);
    expect(next.lastUserText).toBe('go on');
  });
});
