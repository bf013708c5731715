import { describe, expect, it } from 'vitest';
import { codeGrammarReady, grammarsLoaded, onGrammarLoaded } from '../../src/tui/render/highlight.js';
import { renderMarkdown } from '../../src/tui/render/markdown.js';
import {
  CODE_STYLES,
  type CodeRole,
  type Line,
  lineToAnsi,
  plainText,
  THEMES,
} from '../../src/tui/render/style.js';

/** The block as the terminal gets it, colours on. */
const ansi = (markdown: string) => renderMarkdown(markdown, 100).map((line) => lineToAnsi(line, THEMES.dark));
/** How `text` looks when drawn in a role's colour. */
const drawn = (text: string, role: CodeRole) => lineToAnsi([{ text, style: CODE_STYLES[role] }], THEMES.dark);
const rolesOf = (lines: Line[]) =>
  Object.fromEntries(lines.flat().flatMap((s) => (s.style ? [[s.text, s.style]] : [])));

describe('code blocks coloured by their grammar', () => {
  it('draws a block plain while its grammar loads, then tells the live area to draw it again', async () => {
    const block = '```python\ndef add(a, b):\n    return a + b\n```';
    expect(ansi(block)).toEqual(['  def add(a, b):', '      return a + b']);
    let told = 0;
    const stop = onGrammarLoaded(() => told++);
    await codeGrammarReady('python');
    stop();
    expect(told).toBe(1);
    expect(grammarsLoaded()).toBeGreaterThan(0);
    expect(ansi(block)[0]).toContain(drawn('def', 'keyword'));
  });

  it('colours TypeScript: keyword, string, comment, number, type and the called function', async () => {
    await codeGrammarReady('ts');
    const [line] = ansi('```ts\nconst name: string = greet("world", 42); // say hello\n```');
    expect(line).toContain(drawn('const', 'keyword'));
    expect(line).toContain(drawn('"world"', 'string'));
    expect(line).toContain(drawn('// say hello', 'comment'));
    expect(line).toContain(drawn('42', 'number'));
    expect(line).toContain(drawn('string', 'type'));
    expect(line).toContain(drawn('greet', 'function'));
    expect(line).not.toContain(drawn('name', 'function'));
  });

  it('colours Python: keyword, string, comment and constants', async () => {
    await codeGrammarReady('py');
    const lines = ansi("```py\nimport os\nif os.name == 'posix':  # unix\n    print(None)\n```");
    expect(lines[0]).toContain(drawn('import', 'keyword'));
    expect(lines[1]).toContain(drawn('if', 'keyword'));
    expect(lines[1]).toContain(drawn("'posix'", 'string'));
    expect(lines[1]).toContain(drawn('# unix', 'comment'));
    expect(lines[2]).toContain(drawn('print', 'function'));
    expect(lines[2]).toContain(drawn('None', 'constant'));
  });

  it('colours JSON with comments: keys, strings, literals and comments', async () => {
    await codeGrammarReady('json');
    const lines = ansi(
      '```json\n{\n  "model": "a/b", // the default\n  "verbose": true,\n  "n": [1, null]\n}\n```',
    );
    expect(lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''))).toEqual([
      '  {',
      '    "model": "a/b", // the default',
      '    "verbose": true,',
      '    "n": [1, null]',
      '  }',
    ]);
    expect(lines[1]).toContain(drawn('"model"', 'property'));
    expect(lines[1]).toContain(drawn('"a/b"', 'string'));
    expect(lines[1]).toContain(drawn('// the default', 'comment'));
    expect(lines[2]).toContain(drawn('true', 'constant'));
    expect(lines[3]).toContain(drawn('1', 'number'));
  });

  it('keeps a comment or string that spans lines coloured on each, and counts wide characters right', async () => {
    await codeGrammarReady('ts');
    const lines = renderMarkdown('```ts\nconst ü = "é😀"; /* one\ntwo */ let x = `a\nb`;\n```', 100);
    expect(lines.map(plainText)).toEqual(['  const ü = "é😀"; /* one', '  two */ let x = `a', '  b`;']);
    expect(rolesOf(lines)).toMatchObject({
      '"é😀"': CODE_STYLES.string,
      '/* one': CODE_STYLES.comment,
      'two */': CODE_STYLES.comment,
      let: CODE_STYLES.keyword,
      '`a': CODE_STYLES.string,
      'b`': CODE_STYLES.string,
    });
  });

  it('draws a language no grammar reads, and a block with no language, plain', async () => {
    await codeGrammarReady('brainfuck');
    expect(ansi('```brainfuck\n++[>+<-] // not a comment\n```')).toEqual(['  ++[>+<-] // not a comment']);
    expect(ansi('```\nconst x = 1;\n```')).toEqual(['  const x = 1;']);
  });

  it('colours shell commands, Go and Rust too', async () => {
    await Promise.all(['sh', 'go', 'rust'].map(codeGrammarReady));
    const [shell] = ansi('```sh\nif true; then echo "$HOME"; fi # done\n```');
    expect(shell).toContain(drawn('if', 'keyword'));
    expect(shell).toContain(drawn('"$HOME"', 'string'));
    expect(shell).toContain(drawn('# done', 'comment'));
    expect(ansi('```go\nfunc main() { fmt.Println("hi") }\n```')[0]).toContain(drawn('Println', 'function'));
    expect(ansi('```rust\nfn main() { let x: u32 = 1; }\n```')[0]).toContain(drawn('u32', 'type'));
  });
});
