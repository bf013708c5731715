import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DOCUMENTS = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)].filter(
  (name) => name.endsWith('.md'),
);

/** Splits a shell line into words as sh would for the quoting the docs use ('…', "…", \x). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && /["\\$`]/.test(line[i + 1] ?? '')) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\') {
      word = (word ?? '') + (line[++i] ?? '');
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The lathe command of a line in a shell code block, without a trailing comment or a pipe before it. */
function latheCommand(line: string): string | undefined {
  const command =
    line
      .replace(/\s+#\s.*$/, '')
      .split(/\s\|\s/)
      .at(-1)
      ?.trim() ?? '';
  const withoutEnv = command.replace(/^(\w+=\S*\s+)+/, '');
  return withoutEnv.startsWith('lathe ') || withoutEnv === 'lathe' ? withoutEnv : undefined;
}

/** A synopsis (`lathe mcp list [--json]`, `--mode plan|act`) as one command it allows: all options, first choices. */
function fromSynopsis(command: string): string {
  return command.replace(/ \[([^\]]*)\]/g, ' $1').replace(/(^|\s)([\w-]+)(\|[\w-]+)+(?=\s|$)/g, '$1$2');
}

/** Every lathe command in the shell code blocks of a Markdown file. */
function documentedCommands(file: string): string[] {
  const commands: string[] = [];
  let fence: string | undefined;
  for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n')) {
    const marker = /^\s*```(\w*)/.exec(line);
    if (marker) {
      fence = fence === undefined ? marker[1] : undefined;
      continue;
    }
    const inShell = fence !== undefined && ['sh', 'bash', 'shell', 'console', ''].includes(fence);
    const command = inShell ? latheCommand(line.replace(/^\s*\$\s/, '')) : undefined;
    if (command) commands.push(fromSynopsis(command));
  }
  return commands;
}

describe('the commands shown in the README and docs', () => {
  const all = DOCUMENTS.flatMap((file) => documentedCommands(file).map((command) => ({ file, command })));

  it('finds the documented commands, the first runs of the README among them', () => {
    expect(all.length).toBeGreaterThan(60);
    expect(all.filter((c) => c.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    for (const file of ['docs/headless.md', 'docs/commands.md', 'docs/sessions.md', 'docs/settings.md']) {
      expect(all.filter((c) => c.file === file).length, file).toBeGreaterThan(3);
    }
  });

  // `lathe --version` is answered by the entry point before the command line is parsed.
  const parsed = all.filter((c) => c.command !== 'lathe --version');

  it.each(parsed)('$file: $command parses', async ({ command }) => {
    expect(await runCli(shellWords(command).slice(1), { parseOnly: true })).toBe(0);
  });

  it('a command lathe does not understand fails the check', async () => {
    expect(await runCli(shellWords('lathe -p "x" --no-such-flag').slice(1), { parseOnly: true })).toBe(2);
    expect(await runCli(['tool'], { parseOnly: true })).toBe(2);
    expect(await runCli(['--effort', 'huge', '-p', 'x'], { parseOnly: true })).toBe(2);
  });
});
