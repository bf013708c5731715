import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { complete } from '../../src/tui/input/complete.js';
import {
  backspace,
  emptyEditor,
  expandPastes,
  insert,
  insertPaste,
  moveVertical,
} from '../../src/tui/input/editor.js';
import { PromptHistory } from '../../src/tui/input/history.js';
import { KeyReader } from '../../src/tui/input/keys.js';
import { renderEditor } from '../../src/tui/input/render_editor.js';
import { plainText } from '../../src/tui/render/style.js';
import { repo } from './support/lathe_terminal.js';

const key = (flags: Partial<Key> = {}): Key => ({ ...({} as Key), ...flags });

describe('the prompt editor', () => {
  it('folds a large paste into a placeholder and sends the whole text', () => {
    const pasted = Array.from({ length: 40 }, (_, i) => `row ${i}`).join('\n');
    const state = insertPaste(insert(emptyEditor(), 'look: '), pasted);
    expect(state.text).toBe('look: [Pasted text #1 +40 lines]');
    expect(expandPastes(state)).toBe(`look: ${pasted}`);
  });

  it('keeps a small paste as it is', () => {
    expect(insertPaste(emptyEditor(), 'a\nb').text).toBe('a\nb');
  });

  it('deletes a placeholder with one backspace', () => {
    const state = backspace(insertPaste(emptyEditor(), 'x'.repeat(2000)));
    expect(state.text).toBe('');
    expect(state.pastes).toEqual({});
  });

  it('moves between lines keeping the column, and hands over to history at the edges', () => {
    const state = { ...insert(emptyEditor(), 'abc\nde'), cursor: 2 };
    expect(moveVertical(state, 1)?.cursor).toBe(6);
    expect(moveVertical(state, -1)).toBeUndefined();
  });

  it('draws the cursor in inverse video and wraps long lines', () => {
    const lines = renderEditor({ ...insert(emptyEditor(), 'abcdefghij'), cursor: 3 }, 8, {
      prefix: '› ',
      maxLines: 5,
      cursor: true,
    });
    expect(lines.map(plainText)).toEqual(['› abcde', '  fghij']);
    expect(lines[0].find((s) => s.style?.inverse)?.text).toBe('d');
  });
});

describe('keys', () => {
  it('collects a bracketed paste into one paste, line breaks and all', () => {
    const reader = new KeyReader();
    expect(reader.read('[200~', key())).toEqual([]);
    expect(reader.read('one\rtwo', key())).toEqual([]);
    expect(reader.read('[201~', key())).toEqual([{ type: 'paste', text: 'one\rtwo' }]);
  });

  it('reads a typed burst ending in Enter as text, then submit', () => {
    expect(new KeyReader().read('hello\r', key())).toEqual([
      { type: 'insert', text: 'hello' },
      { type: 'submit' },
    ]);
  });

  it('reads a burst with line breaks inside as a paste', () => {
    expect(new KeyReader().read('a\rb\r', key())).toEqual([{ type: 'paste', text: 'a\nb\n' }]);
  });

  it('makes Alt+Enter, Shift+Enter and Ctrl+J new lines, and plain Enter a submit', () => {
    const reader = new KeyReader();
    expect(reader.read('\r', key({ return: true, meta: true }))).toEqual([{ type: 'newline' }]);
    expect(reader.read('\r', key({ return: true, shift: true }))).toEqual([{ type: 'newline' }]);
    expect(reader.read('\n', key())).toEqual([{ type: 'newline' }]);
    expect(reader.read('\r', key({ return: true }))).toEqual([{ type: 'submit' }]);
  });
});

describe('prompt history', () => {
  it('walks back through earlier prompts, returns to the draft, and outlives the session', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lathe-history-')), 'history.jsonl');
    const history = new PromptHistory(file);
    history.add('first');
    history.add('second');
    expect(history.previous('draft')).toBe('second');
    expect(history.previous('draft')).toBe('first');
    expect(history.previous('draft')).toBeUndefined();
    expect(history.next()).toBe('second');
    expect(history.next()).toBe('draft');
    expect(new PromptHistory(file).previous('')).toBe('second');
  });
});

describe('completion', () => {
  it('completes @paths and /commands', () => {
    const dir = repo({ 'src/app.ts': '', 'src/api.ts': '', 'README.md': '' });
    expect(complete('@REA', false, dir, [])).toMatchObject({ replacement: '@README.md', complete: true });
    expect(complete('@src/a', false, dir, [])).toMatchObject({
      replacement: '@src/ap',
      candidates: ['@src/api.ts', '@src/app.ts'],
    });
    expect(complete('/he', true, dir, ['help', 'exit'])).toMatchObject({
      replacement: '/help',
      complete: true,
    });
  });
});
