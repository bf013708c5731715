// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these are shell commands, not templates
import { describe, expect, it } from 'vitest';
import { classifyShellCommand, parseShellCommand } from '../../../src/permission/shell/index.js';

/** The forms Codex runs without asking, and others like them: each is judged by its script. */
const READ_ONLY_SCRIPTS = [
  "bash -lc 'ls'",
  "bash -lc 'ls -la'",
  "bash -lc 'ls -1'",
  "bash -lc 'git status'",
  'bash -lc \'grep -R "Cargo.toml" -n\'',
  "bash -lc 'sed -n 1,5p file.txt'",
  'bash -lc "sed -n \'1,5p\' file.txt"',
  "bash -lc 'find . -name file.txt'",
  'bash -lc \'grep -R "Cargo.toml" -n || true\'',
  "bash -lc 'ls && pwd'",
  'bash -lc "echo \'hi\' ; ls"',
  "bash -lc 'ls | wc -l'",
  "zsh -lc 'ls'",
  'bash -lc "rg foo src | head"',
  "zsh -lc 'git status && git diff'",
  "bash -c 'cat package.json'",
  "sh -c 'git log --oneline -5'",
  "bash -lc \"rg -n 'TODO' -g'*.ts' src\"",
  "/bin/bash -lc 'git diff --stat'",
  "timeout 10 bash -lc 'wc -l src/index.ts'",
  "bash -lc 'ls src/*.ts'",
  "zsh -c 'nl -ba README.md | head -40'",
  'bash -lc "bash -lc \'git branch --show-current\'"',
];

/** Dangerous scripts, and forms that are not plainly `SHELL -c SCRIPT`: none is read-only. */
const NOT_READ_ONLY = [
  "bash -lc 'ls && rm -rf /'",
  "bash -lc 'find . -name file.txt -delete'",
  "bash -lc 'ls > out.txt'",
  "bash -lc 'ls' > out.txt",
  "bash -lc 'git status' extra",
  'bash -lc git status',
  'bash -lc "\'git status\'"',
  "bash -i -c 'ls'",
  "bash -l -c 'ls'",
  'bash --login -c ls',
  'bash -c "$SCRIPT"',
  "bash -c 'ls; ('",
  "bash -c $'ls\\x01'",
  "bash -c 'f() { ls; }; f'",
  "bash -c 'git -c core.pager=x log'",
  'bash -lc \'bash -lc "rm x"\'',
  "sh -c 'ls *.ts'",
  "sh -c 'cat $HOME/x'",
  'zsh -c \'ls *(e:"touch x":)\'',
  "zsh -c 'cat ${(e)x}'",
  "zsh -lc '[[ -f x ]] && ls'",
  "sh -c 'echo $'\\''x'\\'''",
  'BASH_ENV=./x bash -c ls',
  'sudo bash -c ls',
  './bash -c ls',
  'src/bash -c ls',
  'xargs bash -c \'cat "$0"\'',
  "ls | xargs -I{} bash -c 'cat {}'",
  "dash -c 'ls'",
  "python3 -c 'print(1)'",
];

describe('SHELL -c SCRIPT is judged by the commands of its script', () => {
  it.each(READ_ONLY_SCRIPTS)('%s is read-only', async (command) => {
    const result = await classifyShellCommand(command);
    expect(result.reasons).toEqual([]);
    expect(result.readOnly).toBe(true);
  });

  it.each(NOT_READ_ONLY)('%s is not read-only', async (command) => {
    const result = await classifyShellCommand(command);
    expect(result.readOnly).toBe(false);
    expect(result.reasons.length).toBeGreaterThan(0);
  });

  it('the script commands replace the shell, with its wrappers, variables and redirections', async () => {
    const parsed = await parseShellCommand("LANG=C timeout 5 bash -lc 'cd sub && cat a' 2>/dev/null");
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.subcommands.map((sub) => sub.argv)).toEqual([
      ['cd', 'sub'],
      ['cat', 'a'],
    ]);
    const [, cat] = parsed.subcommands;
    expect(cat.text).toBe('cat a');
    expect(cat.wrappers).toEqual([
      ['timeout', '5'],
      ['bash', '-lc'],
    ]);
    expect(cat.assignments).toEqual([{ name: 'LANG', value: 'C', dynamic: false }]);
    expect(cat.redirects).toEqual([{ op: '>', target: '/dev/null', fd: '2', dynamic: false }]);
    expect(cat.outer).toEqual(["LANG=C timeout 5 bash -lc 'cd sub && cat a' 2>/dev/null"]);
  });

  it('a script that is not understood leaves the shell command itself, saying why', async () => {
    const result = await classifyShellCommand("bash -c 'ls; ('");
    expect(result.subcommands.map((sub) => sub.argv)).toEqual([['bash', '-c', 'ls; (']]);
    expect(result.reasons).toEqual([
      "bash runs a script that is judged only as bash -c 'SCRIPT' or bash -lc 'SCRIPT', with nothing after the script and a script that parses",
    ]);
  });

  it('the reason of a dangerous script names its command', async () => {
    const result = await classifyShellCommand("bash -lc 'ls && rm -rf build'");
    expect(result.reasons).toEqual(['"rm" is not on the read-only allowlist']);
  });
});
