import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needs } from '../support/required_programs.js';
import { latheStarter, repo } from './support/lathe_terminal.js';

// The built `lathe` in tmux against the fake model server: what the screen says of the model
// picker, a silent `!command`, the completion row, a declined approval and /export.

const start = latheStarter();

/** The rows of the picker on the screen, from its first choice to the line of keys under it. */
function pickerRows(screen: string): string[] {
  const lines = screen.split('\n');
  const first = lines.findIndex((line) => /^\s*(› )?1\. /.test(line));
  const keys = lines.findIndex((line) => line.includes('to choose'));
  return lines.slice(first, keys);
}

needs('tmux')('a calmer screen', () => {
  it.each([120, 60])(
    '/model marks the models whose key is missing, its rows one per model, at %i columns',
    async (width) => {
      // A key for OpenAI, none for Google: Anthropic's comes from the test setup.
      const { term } = await start([], { env: { OPENAI_API_KEY: 'sk-test' }, size: { width, height: 30 } });
      term.type('/model');
      term.press('Enter');
      const screen = await term.waitFor('to choose', { visible: true });
      const rows = pickerRows(screen);
      expect(rows.length).toBeGreaterThan(5);
      for (const [i, row] of rows.entries()) expect(row).toMatch(new RegExp(`^(› |  )${i + 1}\\. \\S`));
      const row = (model: string) => rows.find((r) => r.includes(`${model} `)) ?? '';
      expect(row('google/gemini-2.5-pro')).toContain('✗ GEMINI_API_KEY is not set');
      expect(row('google/gemini-2.5-flash')).toContain('✗ GEMINI_API_KEY is not set');
      for (const ready of ['anthropic/claude-opus-4-5', 'openai/gpt-5', 'ollama/qwen2.5-coder'])
        expect(row(ready)).not.toContain('✗');
      expect(row('anthropic/claude-haiku-4-5')).toContain('200k context');
    },
  );

  it('/model marks none when --api-key gives the key every model loads with', async () => {
    const { term } = await start([], { args: ['--api-key', 'sk-flag'] });
    term.type('/model');
    term.press('Enter');
    const rows = pickerRows(await term.waitFor('to choose', { visible: true }));
    expect(rows.join('\n')).toContain('google/gemini-2.5-pro');
    expect(rows.join('\n')).not.toContain('✗');
  });

  it('says (no output) under a !command that printed nothing', async () => {
    const { term } = await start([]);
    term.type('!true');
    term.press('Enter');
    await term.waitFor('(no output)');
    term.type('!echo said-something');
    term.press('Enter');
    const shown = await term.waitFor(/! echo said-something\n\s+said-something/);
    expect(shown).toMatch(/! true\n\s+\(no output\)\n/);
    expect(shown.match(/\(no output\)/g)).toHaveLength(1);
  });

  it.each([120, 60])('drops the completion row once the word is done, at %i columns', async (width) => {
    const dir = repo({ 'src/alpha.ts': 'a\n', 'src/beta.ts': 'b\n' });
    const { term } = await start([], { dir, size: { width, height: 24 } });
    // Each key waits for the one before on screen: typed together, a Tab would be typed text.
    term.type('/e');
    await term.waitFor('› /e', { visible: true });
    term.press('Tab');
    await term.waitFor(/\/effort\s+\/export\s+\/exit/, { visible: true });
    term.type('xp');
    // Narrowed to what the word still begins.
    await term.waitFor(/› \/exp\n\s+\/export\s*\n/, { visible: true });
    expect(term.screen()).not.toMatch(/\/effort|\/exit/);
    // A space ends the word: the row goes.
    term.type(' ');
    await term.waitFor(/› \/exp\s*\n ACT /, { visible: true });

    term.press('C-u');
    await term.waitFor('Ask lathe to do something', { visible: true });
    term.type('look at @src/');
    await term.waitFor('› look at @src/', { visible: true });
    term.press('Tab');
    await term.waitFor(/@src\/alpha\.ts\s+@src\/beta\.ts/, { visible: true });
    term.type('alpha.ts');
    await term.waitFor(/› look at @src\/alpha\.ts\n ACT /, { visible: true });
    expect(term.screen()).not.toContain('@src/beta.ts');
  });

  it.each([120, 60])(
    'says in plain words that a call was declined, at %i columns, while the model gets its own message',
    async (width) => {
      const dir = repo({ 'src/a.ts': 'export const a = 1;\n' });
      const lathe = await start(
        [
          {
            toolCalls: [{ name: 'edit_file', input: { path: 'src/a.ts', old_string: '1', new_string: '2' } }],
          },
          { toolCalls: [{ name: 'execute_command', input: { command: 'npm test' } }] },
          { text: 'I will leave the tests alone.' },
        ],
        { dir, size: { width, height: 30 } },
      );
      const { term } = lathe;
      term.type('bump it');
      term.press('Enter');
      await term.waitFor('Edit src/a.ts?');
      term.press('Escape');
      await term.waitFor('Interrupted.');
      expect(term.history()).toMatch(/✗ Edit src\/a\.ts.*\n\s+└ Declined: edit src\/a\.ts\n/);
      term.type('then run the tests');
      term.press('Enter');
      await term.waitFor('Run `npm test`?');
      term.press('n');
      await term.waitFor('I will leave the tests alone.');
      const shown = term.history();
      expect(shown).toMatch(/✗ Run npm test.*\n\s+└ Declined: run `npm test`\n/);
      expect(shown).not.toContain('Interrupted by the user');
      expect(shown).not.toContain('The user declined');
      expect(readFileSync(join(dir, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
      const [, second, third] = lathe.requests();
      expect(second.toolResults[0].content).toMatch(/^Interrupted by the user: edit_file was not run\./);
      expect(third.toolResults[0].content).toBe('The user declined execute_command.');
    },
  );

  it("/export writes into the session's folder, or to the path given, and says where", async () => {
    const dir = repo({ 'README.md': '# repo\n' });
    const lathe = await start([{ text: 'The answer is 42.' }], { dir, size: { width: 250, height: 30 } });
    const { term, home } = lathe;
    term.type('what is the answer?');
    term.press('Enter');
    await term.waitFor('The answer is 42.');
    term.type('/export');
    term.press('Enter');
    await term.waitFor('Exported the conversation to');
    const sessions = join(home, 'sessions');
    const written = readdirSync(sessions, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('conversation.md'))
      .map((name) => join(sessions, name));
    expect(written).toHaveLength(1);
    expect(term.history()).toContain(`Exported the conversation to ${written[0]}`);
    expect(readFileSync(written[0], 'utf8')).toContain('## Assistant\n\nThe answer is 42.');
    // The session's own folder: beside its log, named by its id.
    expect(existsSync(`${join(written[0], '..')}.jsonl`)).toBe(true);
    expect(readdirSync(dir)).toEqual(['README.md']);

    term.type('/export notes/answer.md');
    term.press('Enter');
    await term.waitFor(`Exported the conversation to ${join(dir, 'notes/answer.md')}`);
    expect(readFileSync(join(dir, 'notes/answer.md'), 'utf8')).toContain('what is the answer?');
  });
});
