import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { bashScript } from '../../src/cli/completion/bash.js';
import { completionSpec } from '../../src/cli/completion/spec.js';
import { lathe } from '../support/cli.js';
import { onPath } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** The script `lathe completion SHELL` prints, saved to a file. */
function savedScript(shell: string): string {
  const { code, stdout, stderr } = lathe(['completion', shell]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const file = join(tempDir('lathe-completion-'), `lathe.${shell}`);
  writeFileSync(file, stdout);
  return file;
}

function run(program: string, args: string[]) {
  const result = spawnSync(program, args, { encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** What bash's completion offers for the words typed, the last one being the one at the cursor. */
function bashOffers(script: string, words: string[]): string[] {
  const body = `source ${JSON.stringify(script)}
COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_lathe; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { code, stdout, stderr } = run('bash', ['-c', body]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout.split('\n').filter(Boolean);
}

describe('lathe completion', () => {
  it('prints a bash script bash reads, whose completion offers commands, options and values', () => {
    const script = savedScript('bash');
    expect(run('bash', ['-n', script]).code).toBe(0);
    expect(bashOffers(script, ['lathe', 'doc'])).toEqual(['doctor']);
    expect(bashOffers(script, ['lathe', '--mo'])).toEqual(['--mode', '--model']);
    expect(bashOffers(script, ['lathe', '--mode', ''])).toEqual(['plan', 'act']);
    expect(bashOffers(script, ['lathe', '--cwd', '/tmp', 'sess'])).toEqual(['sessions']);
    expect(bashOffers(script, ['lathe', 'sessions', 'export', '--format', ''])).toEqual(['md', 'jsonl']);
    expect(bashOffers(script, ['lathe', 'doctor', '--'])).toContain('--model');
    expect(bashOffers(script, ['lathe', '-m', 'anthropic/claude-sonnet-4-'])).toContain(
      'anthropic/claude-sonnet-4-5',
    );
    expect(bashOffers(script, ['lathe', '--approve', 'exec'])).toEqual(['executeSafe', 'executeAll']);
  });

  it.skipIf(!onPath('zsh'))('prints a zsh script zsh reads, whose walk finds the command typed', () => {
    const script = savedScript('zsh');
    expect(run('zsh', ['-n', script]).code).toBe(0);
    const body = `autoload -U compinit && compinit -u -d ${JSON.stringify(`${script}.dump`)}
source ${JSON.stringify(script)}
print -r -- "$_comps[lathe]"
__lathe_path --cwd /tmp mcp import
__lathe_candidates "$__lathe_cmd" --from ''
__lathe_candidates '' lathe doc`;
    const { code, stdout } = run('zsh', ['-f', '-c', body]);
    expect(code).toBe(0);
    const [registered, from, commands] = stdout.split('\n');
    expect(registered).toBe('_lathe');
    expect(from).toBe('claude codex gemini cursor vscode');
    expect(commands.split(' ')).toContain('doctor');
  });

  it.skipIf(!onPath('fish'))('prints a fish script fish reads, whose completion offers the same', () => {
    const script = savedScript('fish');
    expect(run('fish', ['--no-execute', script]).code).toBe(0);
    const offers = (line: string) =>
      run('fish', ['--no-config', '-c', `source ${script}; complete -C '${line}'`]).stdout.split('\n');
    expect(offers('lathe doc')).toEqual(['doctor', '']);
    expect(offers('lathe --mo')).toEqual(['--mode', '--model', '']);
    expect(offers('lathe sessions export --format ')).toEqual(['jsonl', 'md', '']);
  });

  it('completes an option added to the program with no change to the completion code', () => {
    const program = new Command('lathe');
    program.command('deploy').addOption(new Option('--target <where>').choices(['staging', 'production']));
    const spec = completionSpec(program);
    expect(spec.find((c) => c.path.length === 0)?.subcommands).toContain('deploy');
    const deploy = spec.find((c) => c.path.join(' ') === 'deploy');
    expect(deploy?.options[0]).toEqual({
      names: ['--target'],
      takesValue: true,
      values: ['staging', 'production'],
    });
    expect(bashScript(spec)).toContain("'deploy|--target') echo 'staging' 'production' ;;");
  });

  it('refuses a shell it has no script for, in one line with the usage exit code', () => {
    const { code, stderr } = lathe(['completion', 'tcsh']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('bash, zsh, fish');
  });
});
