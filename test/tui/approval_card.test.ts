import { describe, expect, it } from 'vitest';
import { optionsFor } from '../../src/tui/prompt/menus.js';
import { initialUi, promptKey, promptLines } from '../../src/tui/prompt/prompt_state.js';
import { renderDiffCard } from '../../src/tui/render/diff_card.js';
import { lineToAnsi, plainText, THEMES } from '../../src/tui/render/style.js';
import { lineWidth } from '../../src/tui/render/width.js';
import type { ApprovalChoice, Prompt } from '../../src/tui/state/prompts.js';

const diff = [
  '--- src/app.ts',
  '+++ src/app.ts',
  '@@ -9,3 +9,3 @@',
  ' export const greeting = "hello";',
  '-export const answer = 41;',
  '+export const answer = 42;',
  ' export const end = true;',
  '@@ -120,2 +120,3 @@',
  ' const last = 1;',
  '+const added = 2;',
  ' const tail = 3;',
].join('\n');

describe("an edit approval's change", () => {
  for (const width of [120, 60])
    it(`is a card with line numbers and bands, and no ---/+++ rows, at ${width} columns`, () => {
      const lines = renderDiffCard(diff, width);
      const text = lines.map(plainText);
      expect(text.some((l) => l.startsWith('---') || l.includes('+++') || l.includes('@@'))).toBe(false);
      expect(text).toContain(`   10 - export const answer = 41;`.padEnd(width));
      expect(text.find((l) => l.includes('+ export const answer = 42;'))).toMatch(/^ {3}10 \+/);
      expect(text.find((l) => l.includes('const added'))).toMatch(/^ {2}121 \+ const added = 2;/);
      expect(text.some((l) => l.trim() === '⋯')).toBe(true);
      // Removed and added rows are bands the width of the terminal; context rows are not.
      for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(width);
      const removed = lines.find((l) => plainText(l).includes('- export const answer'))!;
      expect(lineWidth(removed)).toBe(width);
      expect(lineToAnsi(removed, THEMES.dark)).toContain('48;5;52');
      // Only the changed word is marked on the stronger background.
      const marked = (line: typeof removed, code: string) =>
        line.filter((s) => lineToAnsi([s], THEMES.dark).includes(code)).map((s) => s.text);
      expect(marked(removed, '48;5;124')).toEqual(['41']);
      const added = lines.find((l) => plainText(l).includes('+ export const answer'))!;
      expect(marked(added, '48;5;28')).toEqual(['42']);
      // A line added on its own has no word marks: it is new as a whole.
      expect(marked(lines.find((l) => plainText(l).includes('const added'))!, '48;5;28')).toEqual([]);
    });

  it('names each file when the change spans several', () => {
    const two = `${diff}\n--- b.ts\n+++ b.ts\n@@ -1 +1 @@\n-a\n+b`;
    const text = renderDiffCard(two, 80).map(plainText);
    expect(text).toContain('  src/app.ts');
    expect(text).toContain('  b.ts');
  });

  it('marks no words without colours, only underlines them', () => {
    const removed = renderDiffCard(diff, 80).find((l) => plainText(l).includes('- export const answer'))!;
    expect(lineToAnsi(removed, THEMES.plain)).not.toMatch(/48;5/);
  });
});

function approval(rules: string[]): { prompt: Prompt; answers: ApprovalChoice[] } {
  const answers: ApprovalChoice[] = [];
  const prompt = {
    id: 1,
    kind: 'approval',
    title: 'Edit src/components/settings/panel.tsx?',
    reason: 'edit_file needs approval',
    rules,
    subcommands: [],
    settingsFiles: { project: '/w/.agents/settings.json', user: '/home/u/settings.json' },
    resolve: (choice: ApprovalChoice) => answers.push(choice),
    cancel: () => {},
  } as unknown as Prompt;
  return { prompt, answers };
}

describe('the approval choices', () => {
  it('are three numbered ones, with saving the rule and saying why one letter away', () => {
    const { prompt, answers } = approval(['web_fetch(domain:docs.example.com)']);
    const numbered = promptLines(prompt, initialUi(prompt), 120)
      .map(plainText)
      .filter((l) => /^[› ] \d\./.test(l));
    expect(numbered).toEqual([
      '› 1. Yes',
      "  2. Yes, and don't ask again this session for web_fetch(domain:docs.example.com)",
      '  3. No',
    ]);
    const ui = initialUi(prompt);
    const key = (input: string) => promptKey(prompt, ui, input, {} as never, []);
    expect(key('p').stage).toBe('save');
    expect(key('t').stage).toBe('text');
    key('3');
    expect(answers).toEqual([{ kind: 'no' }]);
    expect(
      optionsFor(prompt)
        .filter((o) => o.key)
        .map((o) => o.key),
    ).toEqual(['p', 'u', 't']);
  });

  it('wrap at 60 columns instead of being cut', () => {
    const { prompt } = approval(['web_fetch(domain:docs.example.com)']);
    const lines = promptLines(prompt, initialUi(prompt), 60);
    const text = lines.map(plainText);
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(60);
    expect(text.filter((l) => l.endsWith('…') && !l.endsWith('why…'))).toEqual([]);
    expect(text.join(' ').replace(/\s+/g, ' ')).toContain(
      "2. Yes, and don't ask again this session for web_fetch(domain:docs.example.com)",
    );
    expect(text.join(' ').replace(/\s+/g, ' ')).toContain('p save the rule to this project’s settings');
  });

  it('offer yes and no only when no rule can be saved', () => {
    const { prompt } = approval([]);
    const text = promptLines(prompt, initialUi(prompt), 80).map(plainText);
    expect(text.filter((l) => /^[› ] \d\./.test(l))).toEqual(['› 1. Yes', '  2. No']);
    expect(text).toContain('  t tell the model why…');
  });
});
