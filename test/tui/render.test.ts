import { describe, expect, it } from 'vitest';
import { codeGrammarReady, highlightCode } from '../../src/tui/render/highlight.js';
import { renderMarkdown } from '../../src/tui/render/markdown.js';
import { renderReadGroup } from '../../src/tui/render/read_group.js';
import { colorsEnabled, type Line, lineToAnsi, plainText, THEMES } from '../../src/tui/render/style.js';
import { renderToolLine } from '../../src/tui/render/tool_line.js';
import '../../src/tui/session/tool_catalogue.js';
import { lineWidth, textWidth, wrapLine } from '../../src/tui/render/width.js';

const text = (lines: Line[]) => lines.map(plainText);

describe('markdown rendering', () => {
  it('renders headings, emphasis, code spans and links as styled text', () => {
    const lines = renderMarkdown('# Title\n\nSome **bold**, *italic*, `code` and [docs](https://x.dev).', 80);
    expect(text(lines)).toEqual(['Title', '', 'Some bold, italic, code and docs (https://x.dev).']);
    expect(lines[0][0].style).toMatchObject({ bold: true, underline: true });
    const spans = lines[2];
    expect(spans.find((s) => s.text === 'bold')?.style).toMatchObject({ bold: true });
    expect(spans.find((s) => s.text === 'italic')?.style).toMatchObject({ italic: true });
    expect(spans.find((s) => s.text === 'code')?.style).toMatchObject({ color: 'code' });
  });

  it('highlights a fenced code block by its language, indented and never re-flowed', async () => {
    await codeGrammarReady('ts');
    const lines = renderMarkdown('```ts\nconst answer = 42; // the answer\n```', 80);
    expect(text(lines)).toEqual(['  const answer = 42; // the answer']);
    const styles = Object.fromEntries(lines[0].map((s) => [s.text.trim(), s.style?.color]));
    expect(styles).toMatchObject({ const: 'keyword', '42': 'number', '// the answer': 'comment' });
  });

  it('renders lists with bullets and task boxes, wrapped with a hanging indent', () => {
    const lines = renderMarkdown(
      '- [x] done\n- [ ] open item that is long enough to wrap here\n1. first',
      30,
    );
    expect(text(lines)).toEqual(['☑ done', '☐ open item that is long', '  enough to wrap here', '1. first']);
  });

  it('renders a table with aligned columns, or one row per line when too wide', () => {
    const table = '| name | size |\n|---|---|\n| a.ts | 10 |\n| bb.ts | 200 |';
    expect(text(renderMarkdown(table, 80))).toEqual([
      'name  │ size',
      '──────┼─────',
      'a.ts  │ 10  ',
      'bb.ts │ 200 ',
    ]);
    expect(text(renderMarkdown(table, 8))[0]).toBe('name ·');
  });

  it('keeps every line within the width', () => {
    const lines = renderMarkdown(
      `${'word '.repeat(60)}\n\n> ${'quoted '.repeat(30)}\n\n\`\`\`\n${'x'.repeat(200)}\n\`\`\``,
      40,
    );
    for (const line of lines) expect(lineWidth(line)).toBeLessThanOrEqual(40);
  });

  it('colors a diff block', () => {
    const [added, removed] = highlightCode(['+new', '-old'], 'diff');
    expect(added[0].style?.color).toBe('added');
    expect(removed[0].style?.color).toBe('removed');
  });
});

describe('text width and wrapping', () => {
  it('counts wide characters as two columns and combining marks as none', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
  });

  it('wraps at word boundaries and breaks words longer than a line', () => {
    expect(wrapLine([{ text: 'one two three four' }], 9).map(plainText)).toEqual([
      'one two',
      'three',
      'four',
    ]);
    expect(wrapLine([{ text: 'abcdefghij' }], 4).map(plainText)).toEqual(['abcd', 'efgh', 'ij']);
  });
});

describe('colors', () => {
  it('are off under NO_COLOR and TERM=dumb, on otherwise', () => {
    expect(colorsEnabled({ NO_COLOR: '1' })).toBe(false);
    expect(colorsEnabled({ TERM: 'dumb' })).toBe(false);
    expect(colorsEnabled({ TERM: 'xterm-256color' })).toBe(true);
  });

  it('without colors, keep bold and inverse but drop every color code', () => {
    const line: Line = [
      { text: 'a', style: { color: 'error', bold: true } },
      { text: 'b', style: { inverse: true } },
    ];
    expect(lineToAnsi(line, THEMES.plain)).toBe('\x1b[1ma\x1b[0m\x1b[7mb\x1b[0m');
    expect(lineToAnsi(line, THEMES.dark)).toContain('\x1b[1;31m');
  });
});

describe('tool lines', () => {
  it('show the call in a few words, its status and time, and a collapsed result', () => {
    const output = Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n');
    const lines = renderToolLine(
      {
        id: '1',
        name: 'execute_command',
        input: { command: 'npm test' },
        status: 'ok',
        elapsedMs: 2300,
        resultText: `${output}\n\nExit code 0.`,
      },
      80,
    );
    expect(text(lines)).toEqual([
      '✓ Run npm test  2.3s',
      '  └ … 28 more lines (ctrl+o to expand)',
      '    line 28',
      '    line 29',
      '    Exit code 0.',
    ]);
  });

  it('show an edit as its diff stat and the first diff lines', () => {
    const result = 'Edited a.ts (1 replacement).\n--- a.ts\n+++ a.ts\n@@ -1,1 +1,1 @@\n-old\n+new';
    const lines = text(
      renderToolLine(
        {
          id: '1',
          name: 'edit_file',
          input: { path: 'a.ts' },
          status: 'ok',
          elapsedMs: 5,
          resultText: result,
        },
        80,
      ),
    );
    expect(lines).toEqual([
      '✓ Edit a.ts  5ms',
      '  └ Edited a.ts (1 replacement). +1 -1',
      '    @@ -1,1 +1,1 @@',
      '    -old',
      '    +new',
    ]);
  });

  it('show what a running call waits for once it has run a second, and not after its result', () => {
    const running = {
      id: '1',
      name: 'edit_file',
      input: { path: 'a.ts' },
      status: 'running' as const,
      startedAt: 10_000,
      progress: 'checking diagnostics…',
    };
    expect(text(renderToolLine(running, 80, 10_999))).toEqual(['● Edit a.ts  999ms']);
    expect(text(renderToolLine(running, 80, 11_000))).toEqual([
      '● Edit a.ts  1.0s',
      '  └ checking diagnostics…',
    ]);
    // A command's own last lines are what it shows while it runs.
    expect(text(renderToolLine({ ...running, tail: ['compiling'] }, 80, 12_000))).toEqual([
      '● Edit a.ts  2.0s',
      '  └ compiling',
    ]);
    const done = { ...running, status: 'ok' as const, elapsedMs: 1500, resultText: 'Edited a.ts.' };
    expect(text(renderToolLine(done, 80, 12_000))).toEqual(['✓ Edit a.ts  1.5s', '  └ Edited a.ts.']);
    const read = { ...running, id: '2', name: 'read_file', progress: undefined };
    const group = (now: number) => text(renderReadGroup([read, { ...running, name: 'lsp' }], 80, { now }));
    expect(group(10_500)).toEqual(['● Reading 1 file, searching 1 pattern  500ms']);
    expect(group(11_500)).toEqual([
      '● Reading 1 file, searching 1 pattern  1.5s',
      '  └ checking diagnostics…',
    ]);
  });
});
