import { describe, expect, it } from 'vitest';
import { broadAllowReason, broadAllowWarnings } from '../../src/permission/rule_breadth.js';
import { commandPatternMatches, commandRuleMatches, parseRule } from '../../src/permission/rules.js';
import { parseShellCommand, type Subcommand } from '../../src/permission/shell/index.js';
import type { PermissionRule, RuleAction } from '../../src/permission/types.js';

function rule(action: RuleAction, text: string): PermissionRule {
  const parsed = parseRule({ rule: text, action, source: 'test' });
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

async function only(command: string): Promise<Subcommand> {
  const parsed = await parseShellCommand(command);
  if (!parsed.ok || parsed.subcommands.length !== 1) throw new Error(`expected one subcommand: ${command}`);
  return parsed.subcommands[0];
}

describe('in deny and ask rules * matches any run of characters', () => {
  it('npm run dangerous* and npm run dangerous:* stop npm run dangerous-script', () => {
    for (const pattern of ['npm run dangerous*', 'npm run dangerous:*']) {
      expect(commandPatternMatches(pattern, 'npm run dangerous-script', true), pattern).toBe(true);
      expect(commandPatternMatches(pattern, 'npm run dangerous', true), pattern).toBe(true);
      expect(commandPatternMatches(pattern, 'npm run dangerous --x', true), pattern).toBe(true);
      expect(commandPatternMatches(pattern, 'npm run safe', true), pattern).toBe(false);
    }
  });
  it('spaces included, and a pattern ending in " *" also matches the bare command', () => {
    expect(commandPatternMatches('git * --force', 'git push origin main --force', true)).toBe(true);
    expect(commandPatternMatches('rm *', 'rm', true)).toBe(true);
    expect(commandPatternMatches('rm *', 'rm -rf x', true)).toBe(true);
    expect(commandPatternMatches('rm *', 'rmdir x', true)).toBe(false);
    expect(commandPatternMatches('echo*', 'echoevil', true)).toBe(true);
  });
  it('a plain pattern still matches the command or it followed by more words', () => {
    expect(commandPatternMatches('git push', 'git push origin', true)).toBe(true);
    expect(commandPatternMatches('git push', 'git pushx', true)).toBe(false);
  });
  it('allow rules stay strict: a * ending a word matches at a word boundary', () => {
    expect(commandPatternMatches('npm run dangerous*', 'npm run dangerous-script')).toBe(false);
    expect(commandPatternMatches('npm run dangerous:*', 'npm run dangerous-script')).toBe(false);
    expect(commandPatternMatches('npm run dangerous*', 'npm run dangerous --x')).toBe(true);
    expect(commandPatternMatches('echo*', 'echoevil')).toBe(false);
  });
});

describe('deny and ask rules also match the program that actually runs', () => {
  it('wrappers and quotes taken off', async () => {
    for (const command of ["'rm' -rf x", 'timeout 5 rm x', 'env X=1 rm x', 'nice -n 2 rm x', 'xargs rm']) {
      const sub = await only(command);
      expect(commandRuleMatches(rule('deny', 'execute_command(rm*)'), sub.text, sub), command).toBe(true);
      expect(commandRuleMatches(rule('ask', 'execute_command(rm)'), sub.text, sub), command).toBe(true);
      expect(commandRuleMatches(rule('allow', 'execute_command(rm*)'), sub.text, sub), command).toBe(false);
    }
  });
  it('the commands of a bash -lc script, and the bash -lc command around them', async () => {
    const sub = await only("bash -lc 'rm -rf build'");
    expect(sub.text).toBe('rm -rf build');
    expect(commandRuleMatches(rule('deny', 'execute_command(rm *)'), sub.text, sub)).toBe(true);
    expect(commandRuleMatches(rule('deny', 'execute_command(bash*)'), sub.text, sub)).toBe(true);
    expect(commandRuleMatches(rule('allow', 'execute_command(rm -rf build)'), sub.text, sub)).toBe(true);
    expect(commandRuleMatches(rule('allow', "execute_command(bash -lc 'rm -rf build')"), sub.text, sub)).toBe(
      true,
    );
  });
});

describe('allow rules broader than they look', () => {
  const broad: Array<[string | undefined, RegExp]> = [
    [undefined, /every command/],
    ['*', /every command/],
    ['* install', /every command/],
    ['git', /every git subcommand \(git push --force too\)/],
    ['git *', /every git subcommand/],
    ['git:*', /every git subcommand/],
    ['git*', /every git subcommand/],
    ['git * main', /every git subcommand/],
    ['npm', /every npm subcommand \(npm publish too\)/],
    ['bash *', /bash runs whatever command/],
    ['env', /env runs whatever command/],
    ['xargs*', /xargs runs whatever command/],
    ['./scripts/*', /any characters/],
    ['make test-*', /any characters/],
    ['cat * --x', /any characters/],
  ];
  it.each(broad)('%s: %s', (pattern, reason) => {
    expect(broadAllowReason(pattern)).toMatch(reason);
  });

  const narrow = [
    'npm test',
    'npm test:*',
    'npm test*',
    'git status*',
    'git diff',
    'ls *',
    'echo*',
    'npm r*',
  ];
  it.each(narrow)('%s is as broad as it looks', (pattern) => {
    expect(broadAllowReason(pattern)).toBeUndefined();
  });

  it('only allow rules of tools that run commands are warned about', () => {
    const rules = [
      rule('allow', 'execute_command(git *)'),
      rule('deny', 'execute_command(git *)'),
      rule('ask', 'execute_command(*)'),
      rule('allow', 'read_file(*)'),
      rule('allow', 'execute_command(npm test)'),
    ];
    expect(broadAllowWarnings(rules, ['execute_command'])).toEqual([
      'test: allow rule execute_command(git *) is broader than it looks: it allows every git subcommand (git push --force too)',
    ]);
  });
});
