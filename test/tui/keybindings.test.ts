import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { parseKeyName } from '../../src/tui/input/key_names.js';
import {
  DEFAULT_KEYMAP,
  KEY_ACTIONS,
  keymapFrom,
  loadKeybindings,
  shownKeys,
} from '../../src/tui/input/keybindings.js';
import { KeyReader } from '../../src/tui/input/keys.js';
import { tempDir } from '../support/runtime_fixtures.js';

const key = (flags: Partial<Key> = {}): Key => ({ ...({} as Key), ...flags });

describe('the default keys', () => {
  it('name every action the UI had before keybindings', () => {
    expect(DEFAULT_KEYMAP.action('o', key({ ctrl: true }))).toBe('expand');
    expect(DEFAULT_KEYMAP.action('', key({ tab: true, shift: true }))).toBe('cycleMode');
    expect(DEFAULT_KEYMAP.action('', key({ escape: true, meta: true }))).toBe('interrupt');
    expect(DEFAULT_KEYMAP.action('\r', key({ return: true, meta: true }))).toBe('newline');
    expect(DEFAULT_KEYMAP.action('\n', key())).toBe('newline');
    expect(DEFAULT_KEYMAP.action('', key({ leftArrow: true, ctrl: true }))).toBe('wordLeft');
    // Shift with a key of no binding of its own does what the key does.
    expect(DEFAULT_KEYMAP.action('', key({ leftArrow: true, shift: true }))).toBe('cursorLeft');
    expect(DEFAULT_KEYMAP.action('a', key())).toBeUndefined();
  });

  it('are each a key the file could write', () => {
    for (const [name, spec] of Object.entries(KEY_ACTIONS))
      for (const written of spec.keys)
        expect(parseKeyName(written), `${name}: ${written}`).toEqual({ key: written });
  });
});

describe('docs/tui.md', () => {
  it('lists every action with its default keys', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/tui.md'), 'utf8');
    for (const [name, spec] of Object.entries(KEY_ACTIONS)) {
      const row = docs.split('\n').find((line) => line.startsWith('| ') && line.includes(`\`${name}\``));
      expect(row, name).toBeDefined();
      for (const written of spec.keys) {
        const shown = shownKeys(DEFAULT_KEYMAP, name as keyof typeof KEY_ACTIONS)
          .split(', ')
          .find((k) => k.toLowerCase() === written);
        // Arrows and named keys are written as symbols in the table (←, Shift+Tab, Backspace).
        if (/^(ctrl\+)?[a-z]$/.test(written)) expect(row, `${name}: ${written}`).toContain(shown);
      }
    }
  });
});

describe('a keybindings file', () => {
  it('moves an action to another key, and the key it had is free', () => {
    const { keymap, problems } = keymapFrom({ submit: 'ctrl+s', newline: ['enter', 'alt+enter'] }, 'kb.json');
    expect(problems).toEqual([]);
    const reader = new KeyReader(keymap);
    expect(reader.read('s', key({ ctrl: true }))).toEqual([{ type: 'submit' }]);
    expect(reader.read('\r', key({ return: true }))).toEqual([{ type: 'newline' }]);
    expect(keymap.keysOf.submit).toEqual(['ctrl+s']);
  });

  it('takes a key from the action it was the default of, and unbinds with []', () => {
    const { keymap } = keymapFrom({ expand: 'ctrl+t', background: [] }, 'kb.json');
    expect(keymap.action('t', key({ ctrl: true }))).toBe('expand');
    expect(keymap.keysOf.toggleAgents).toEqual([]);
    expect(keymap.action('b', key({ ctrl: true }))).toBeUndefined();
    expect(keymap.action('o', key({ ctrl: true }))).toBeUndefined();
  });

  it('gives one line per bad entry, and that entry keeps its defaults', () => {
    const { keymap, problems } = keymapFrom(
      { expnad: 'ctrl+y', expand: 'ctrl+oops', cycleMode: 'x', clear: 'ctrl+y', quit: 'ctrl+y', submit: 3 },
      'kb.json',
    );
    expect(problems).toEqual([
      'kb.json: "expnad" is not an action (did you mean expand?)',
      'kb.json: "expand": "ctrl+oops": "oops" is not a key (keys look like ctrl+o, alt+enter, shift+tab, escape, up); it keeps its default keys (ctrl+o)',
      'kb.json: "cycleMode": "x": a character needs ctrl or alt, or it could not be typed; it keeps its default keys (shift+tab)',
      'kb.json: "quit": "ctrl+y" is already bound to clear; it keeps its default keys (ctrl+d)',
      'kb.json: "submit": must be a key ("ctrl+o") or a list of keys ([] unbinds it); it keeps its default keys (enter)',
    ]);
    for (const problem of problems) expect(problem).not.toContain('\n');
    expect(keymap.action('o', key({ ctrl: true }))).toBe('expand');
    expect(keymap.action('y', key({ ctrl: true }))).toBe('clear');
    expect(keymap.action('d', key({ ctrl: true }))).toBe('quit');
  });

  it('that does not parse is one line with its place, and the default keys apply', () => {
    const file = join(tempDir(), 'keybindings.json');
    writeFileSync(file, '{\n  "expand": "ctrl+y",\n  oops\n}\n');
    const { keymap, problems } = loadKeybindings(file);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${file}:3:\\d+: .*; the default keys apply$`));
    expect(keymap).toBe(DEFAULT_KEYMAP);
  });

  it('that is missing is the defaults, with nothing to report', () => {
    expect(loadKeybindings(join(tempDir(), 'none.json'))).toEqual({ keymap: DEFAULT_KEYMAP, problems: [] });
  });
});
