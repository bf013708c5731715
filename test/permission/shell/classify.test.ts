// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these are shell commands, not templates
import { describe, expect, it } from 'vitest';
import {
  classifyShellCommand,
  parseShellCommand,
  type Subcommand,
} from '../../../src/permission/shell/index.js';
import { CORPUS } from './corpus.js';

async function parsed(command: string): Promise<Subcommand[]> {
  const result = await parseShellCommand(command);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(command)} to parse: ${result.reason}`);
  return result.subcommands;
}

async function argvs(command: string): Promise<string[][]> {
  return (await parsed(command)).map((sub) => sub.argv);
}

async function failure(command: string): Promise<string> {
  const result = await parseShellCommand(command);
  if (result.ok) throw new Error(`expected ${JSON.stringify(command)} not to parse`);
  return result.reason;
}

function label(command: string): string {
  const shown = JSON.stringify(command);
  return shown.length > 90 ? `${shown.slice(0, 87)}…` : shown;
}

describe('classifyShellCommand corpus', () => {
  it('has at least 300 commands, mutating and read-only', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(300);
    expect(CORPUS.filter((entry) => entry.readOnly).length).toBeGreaterThan(100);
    expect(CORPUS.filter((entry) => !entry.readOnly).length).toBeGreaterThan(150);
  });

  const cases = CORPUS.map((entry) => ({ ...entry, name: label(entry.cmd) }));
  it.each(cases)('$name → read-only: $readOnly', async ({ cmd, readOnly }) => {
    const result = await classifyShellCommand(cmd);
    expect(result.readOnly, result.reasons.join('; ')).toBe(readOnly);
    if (readOnly) expect(result.reasons).toEqual([]);
    else expect(result.reasons.length).toBeGreaterThan(0);
  });
});

describe('classifyShellCommand reasons', () => {
  it('names the redirection target', async () => {
    const result = await classifyShellCommand('git log > history.txt');
    expect(result.reasons).toEqual(['writes to history.txt (>)']);
  });

  it('names the command that is not allowed', async () => {
    const result = await classifyShellCommand('ls && rm -rf build');
    expect(result.reasons).toEqual(['"rm" is not on the read-only allowlist']);
  });

  it('returns the subcommands it judged', async () => {
    const result = await classifyShellCommand('git status && git diff');
    expect(result.subcommands.map((sub) => sub.argv)).toEqual([
      ['git', 'status'],
      ['git', 'diff'],
    ]);
  });
});

describe('parseShellCommand: splitting', () => {
  it('splits lists, pipelines and background jobs', async () => {
    expect(await argvs('a 1 && b || c; d | e & f\ng')).toEqual([
      ['a', '1'],
      ['b'],
      ['c'],
      ['d'],
      ['e'],
      ['f'],
      ['g'],
    ]);
  });

  it('walks subshells, groups and compound statements', async () => {
    expect(await argvs('(a; b) && { c; }')).toEqual([['a'], ['b'], ['c']]);
    expect(await argvs('if a; then b; elif c; then d; else e; fi')).toEqual([
      ['a'],
      ['b'],
      ['c'],
      ['d'],
      ['e'],
    ]);
    expect(await argvs('while a; do b; done; until c; do d; done')).toEqual([['a'], ['b'], ['c'], ['d']]);
    expect(await argvs('case $x in y) a;; *) b;; esac')).toEqual([['a'], ['b']]);
    expect(await argvs('! a')).toEqual([['a']]);
  });

  it('records a for loop variable as an assignment', async () => {
    const [loop, body] = await parsed('for f in *.ts; do wc -l "$f"; done');
    expect(loop.argv).toEqual([]);
    expect(loop.assignments).toEqual([{ name: 'f', value: '*.ts', dynamic: true }]);
    expect(body.argv).toEqual(['wc', '-l', '$f']);
  });

  it('has no cap on the number of subcommands', async () => {
    const command = Array.from({ length: 2000 }, (_, i) => `echo ${i}`).join(' && ');
    const subs = await parsed(command);
    expect(subs).toHaveLength(2000);
    expect(subs[1999].argv).toEqual(['echo', '1999']);
  });

  it('keeps the source text of each simple command', async () => {
    const subs = await parsed('ls -la >out 2>&1 | grep x');
    expect(subs.map((sub) => sub.text)).toEqual(['ls -la >out 2>&1', 'grep x']);
  });
});

describe('parseShellCommand: words', () => {
  it('removes quotes and escapes', async () => {
    const [sub] = await parsed(`echo 'a b' "c d" e\\ f $'g\\th' r"m" "x\\"y" \\$z`);
    expect(sub.argv).toEqual(['echo', 'a b', 'c d', 'e f', 'g\th', 'rm', 'x"y', '$z']);
    expect(sub.words.every((word) => !word.dynamic)).toBe(true);
  });

  it('marks words known only at run time, with what they are known to start with', async () => {
    const [sub] = await parsed('echo $x "$y" *.ts src/*.ts ~/a pre$z "pre$z" {a,b} @{u} {}');
    expect(sub.words.slice(1).map((word) => [word.dynamic, word.literalPrefix])).toEqual([
      [true, ''],
      [true, ''],
      [true, ''],
      [true, 'src/'],
      [true, '~'],
      [true, ''], // unquoted: `pre$z` may split into several words
      [true, 'pre'],
      [true, ''],
      [true, '@'],
      [false, '{}'],
    ]);
  });

  it('flags a dynamic command name', async () => {
    for (const command of ['$CMD x', '"$CMD"', '$(which ls)', '`which ls`', '*', 'l{s,}']) {
      const [sub] = (await parsed(command)).slice(-1);
      expect(sub.dynamic, command).toBe(true);
    }
    const [plain] = await parsed("'ls' -la");
    expect(plain.dynamic).toBe(false);
  });
});

describe('parseShellCommand: redirections', () => {
  it('captures every operator, descriptor and target', async () => {
    const [sub] = await parsed('cmd >out 2>&1 <in >>log &>all >|clobber 2>/dev/null 3<&- >&2');
    expect(sub.argv).toEqual(['cmd']);
    expect(sub.redirects.map((r) => [r.fd ?? '', r.op, r.target])).toEqual([
      ['', '>', 'out'],
      ['2', '>&', '1'],
      ['', '<', 'in'],
      ['', '>>', 'log'],
      ['', '&>', 'all'],
      ['', '>|', 'clobber'],
      ['2', '>', '/dev/null'],
      ['3', '<&-', ''],
      ['', '>&', '2'],
    ]);
  });

  it('gives words after a redirection to the command, as bash does', async () => {
    const [sub] = await parsed('sort a > /dev/null -o b');
    expect(sub.argv).toEqual(['sort', 'a', '-o', 'b']);
    expect(sub.redirects.map((r) => r.target)).toEqual(['/dev/null']);
  });

  it('applies the redirections of a group or loop to every command inside', async () => {
    const subs = await parsed('{ a; b; } > out');
    expect(subs.map((sub) => sub.redirects.map((r) => r.target))).toEqual([['out'], ['out']]);
  });

  it('keeps a redirection with no command', async () => {
    const [sub] = await parsed('> file');
    expect(sub.argv).toEqual([]);
    expect(sub.redirects).toEqual([{ op: '>', target: 'file', fd: undefined, dynamic: false }]);
  });

  it('marks a target only known at run time', async () => {
    const [sub] = await parsed('ls > "$out"');
    expect(sub.redirects[0]).toMatchObject({ op: '>', dynamic: true });
  });
});

describe('parseShellCommand: here-documents and here-strings', () => {
  it('captures the delimiter and a redirection on the same line', async () => {
    const [sub] = await parsed('cat <<EOF > f\nhello\nEOF');
    expect(sub.argv).toEqual(['cat']);
    expect(sub.redirects.map((r) => [r.op, r.target])).toEqual([
      ['<<', 'EOF'],
      ['>', 'f'],
    ]);
  });

  it('walks substitutions in an unquoted body but not in a quoted one', async () => {
    expect(await argvs('cat <<EOF\nhead $(git rev-parse HEAD)\nEOF')).toEqual([
      ['git', 'rev-parse', 'HEAD'],
      ['cat'],
    ]);
    expect(await argvs("cat <<'EOF'\n$(rm -rf /)\nEOF")).toEqual([['cat']]);
    expect(await argvs('cat <<\\EOF\n$(rm -rf /)\nEOF')).toEqual([['cat']]);
  });

  it('walks what follows the delimiter on its line', async () => {
    expect(await argvs('cat <<EOF | grep x && wc -l\nx\nEOF')).toEqual([
      ['grep', 'x'],
      ['wc', '-l'],
      ['cat'],
    ]);
  });

  it('strips tabs for <<-', async () => {
    const [sub] = await parsed('cat <<-EOF\n\thello\n\tEOF');
    expect(sub.redirects[0]).toMatchObject({ op: '<<-', target: 'EOF' });
  });

  it('captures a here-string and what it runs', async () => {
    const subs = await parsed('grep x <<< "$(pwd)"');
    expect(subs.map((sub) => sub.argv)).toEqual([['pwd'], ['grep', 'x']]);
    expect(subs[1].redirects[0]).toMatchObject({ op: '<<<', target: '$(pwd)', dynamic: true });
  });

  it('refuses delimiters bash and the grammar read differently, and backquotes in a body', async () => {
    expect(await failure('cat <<E"O"F\nx\nEOF\nrm y\nE"O"F')).toMatch(/delimiter/);
    expect(await failure('cat <<EOF\n`rm x`\nEOF')).toMatch(/backquotes/);
  });
});

describe('parseShellCommand: substitutions and assignments', () => {
  it('returns the commands inside nested substitutions', async () => {
    expect(await argvs('echo "$(echo "$(pwd)")" `id` <(ls a) >(cat)')).toEqual([
      ['pwd'],
      ['echo', '$(pwd)'],
      ['id'],
      ['ls', 'a'],
      ['cat'],
      ['echo', '$(echo "$(pwd)")', '`id`', '<(ls a)', '>(cat)'],
    ]);
  });

  it('finds substitutions inside expansions, subscripts and redirection targets', async () => {
    const found = await argvs('echo ${x:-$(a)} ${y[$(b)]} > $(c)');
    expect(found).toHaveLength(4);
    expect(found).toEqual(
      expect.arrayContaining([['a'], ['b'], ['c'], ['echo', '${x:-$(a)}', '${y[$(b)]}']]),
    );
  });

  it('keeps a bare assignment and the command it runs', async () => {
    const subs = await parsed('FOO=$(rm x)');
    expect(subs.map((sub) => sub.argv)).toEqual([['rm', 'x'], []]);
    expect(subs[1].assignments).toEqual([{ name: 'FOO', value: '$(rm x)', dynamic: true }]);
  });

  it('records assignments before a command', async () => {
    const [sub] = await parsed('A=1 B="two words" ls');
    expect(sub.argv).toEqual(['ls']);
    expect(sub.assignments).toEqual([
      { name: 'A', value: '1', dynamic: false },
      { name: 'B', value: 'two words', dynamic: false },
    ]);
  });

  it('collects arithmetic, whose names bash may evaluate', async () => {
    const result = await parseShellCommand('echo $((1 + 2)) ${a[$i]} ${s:1:2}; [[ $n -gt 3 ]]');
    expect(result.ok && result.arithmetic).toEqual(['1 + 2', '$i', '1:2', '$n', '3']);
  });
});

describe('parseShellCommand: wrappers', () => {
  it('peels wrappers off and records them', async () => {
    const [sub] = await parsed('sudo -u me timeout -s KILL 5 nice -n 2 env -i A=1 command ls -l');
    expect(sub.argv).toEqual(['ls', '-l']);
    expect(sub.wrappers).toEqual([
      ['sudo', '-u', 'me'],
      ['timeout', '-s', 'KILL', '5'],
      ['nice', '-n', '2'],
      ['env', '-i', 'A=1'],
      ['command'],
    ]);
    expect(sub.assignments).toEqual([{ name: 'A', value: '1', dynamic: false }]);
  });

  it('marks words xargs adds or replaces', async () => {
    const [appended] = await parsed('xargs -0 -n1 grep x');
    expect(appended).toMatchObject({
      argv: ['grep', 'x'],
      argsFromInput: true,
      wrappers: [['xargs', '-0', '-n1']],
    });
    const [replaced] = await parsed('xargs -I{} cat {}');
    expect(replaced.argsFromInput).toBe(false);
    expect(replaced.words[1]).toMatchObject({ value: '{}', dynamic: true });
    const [echo] = await parsed('xargs');
    expect(echo.argv).toEqual(['echo']);
  });

  it('stops peeling at options it does not know', async () => {
    expect(await argvs("env -S 'rm x'")).toEqual([['env', '-S', 'rm x']]);
    expect(await argvs('command -v ls')).toEqual([['command', '-v', 'ls']]);
    expect(await argvs('xargs -l rm ls')).toEqual([['rm', 'ls']]);
  });
});

describe('parseShellCommand: refusals', () => {
  it('refuses what it does not model', async () => {
    expect(await failure('f() { ls; }')).toMatch(/function/);
    expect(await failure('ls &&')).toMatch(/syntax/);
    expect(await failure('echo ${!name}')).toMatch(/indirect/);
    expect(await failure('echo ${x@P}')).toMatch(/transformation/);
    expect(await failure('so\\\nrt -o out f')).toMatch(/line continuation/);
    expect(await failure('ls\rrm x')).toMatch(/control/);
    expect(await failure('[ a > b ]')).toMatch(/redirection/);
    expect(await failure('echo ${x:-`rm y`}')).toMatch(/substitution/);
  });

  it('refuses absurdly large or deeply nested input', async () => {
    expect(await failure(`echo ${'a'.repeat(100_001)}`)).toMatch(/too complex/);
    expect(await failure(`${'$('.repeat(300)}ls${')'.repeat(300)}`)).toMatch(/too (deeply nested|complex)/);
  });
});
