import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeRuleFromFile, saveAllowRules } from '../../src/config/settings_rules.js';
import { tempDir } from '../support/runtime_fixtures.js';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('writing permission rules into a settings file', () => {
  it('creates the file, and its folder, when there is none', async () => {
    const file = join(tempDir(), '.agents', 'settings.json');
    expect(await saveAllowRules(file, ['read_file(src/**)'])).toEqual(['read_file(src/**)']);
    expect(json(file)).toEqual({ permissions: { allow: ['read_file(src/**)'] } });
  });

  it('keeps the other settings and the other rule lists', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, '{ "profile": "lite", "permissions": { "deny": ["read_file(.env)"] } }');
    await saveAllowRules(file, ['execute_command(make)']);
    expect(json(file)).toEqual({
      profile: 'lite',
      permissions: { deny: ['read_file(.env)'], allow: ['execute_command(make)'] },
    });
  });

  it('writes through a symlinked settings file to its target, leaving the link in place', async () => {
    const dir = tempDir();
    const target = join(dir, 'dotfiles-settings.json');
    writeFileSync(target, '{}');
    const link = join(dir, 'settings.json');
    symlinkSync(target, link);
    await saveAllowRules(link, ['glob']);
    expect(json(target)).toEqual({ permissions: { allow: ['glob'] } });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('removes the first rule that matches from the named list only', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(
      file,
      JSON.stringify({ permissions: { allow: ['glob', 'execute_command(make)', 'glob'], deny: ['glob'] } }),
    );
    expect(await removeRuleFromFile(file, 'allow', (rule) => rule === 'glob')).toBe(true);
    expect(json(file)).toEqual({ permissions: { allow: ['execute_command(make)', 'glob'], deny: ['glob'] } });
  });

  it('says so, and leaves the file alone, when no rule matches', async () => {
    const file = join(tempDir(), 'settings.json');
    const text = '{ "permissions": { "allow": ["glob"] } }';
    writeFileSync(file, text);
    expect(await removeRuleFromFile(file, 'allow', (rule) => rule === 'read_file')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('refuses to remove from a file that does not parse, and leaves it as it was', async () => {
    const file = join(tempDir(), 'settings.json');
    writeFileSync(file, '{ "permissions": ');
    await expect(removeRuleFromFile(file, 'allow', () => true)).rejects.toThrow(/the rule was not removed/);
    expect(readFileSync(file, 'utf8')).toBe('{ "permissions": ');
  });
});
