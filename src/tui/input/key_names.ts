import type { Key } from 'ink';

/**
 * Keys by name, as the keybindings file writes them: modifiers first (`ctrl`, `alt`, `shift`, in
 * that order), then the key: `ctrl+o`, `alt+enter`, `shift+tab`, `escape`, `up`.
 */
const NAMED_KEYS = [
  'enter',
  'escape',
  'tab',
  'backspace',
  'up',
  'down',
  'left',
  'right',
  'home',
  'end',
  'pageup',
  'pagedown',
] as const;

const SYNONYMS: Record<string, string> = { return: 'enter', esc: 'escape', meta: 'alt', option: 'alt' };
const MODIFIERS = ['ctrl', 'alt', 'shift'] as const;

/** The name of the key Ink reports, or undefined for plain typing (which is never bound). */
export function keyName(input: string, key: Key): string | undefined {
  // Ctrl+J arrives as a bare line feed.
  if (input === '\n' && !key.return) return 'ctrl+j';
  const base = namedKey(key);
  if (base === 'escape') return 'escape';
  if (base) return withModifiers(base, key.ctrl, key.meta, key.shift);
  if (input.length !== 1 || !(key.ctrl || key.meta)) return undefined;
  return withModifiers(input.toLowerCase(), key.ctrl, key.meta, false);
}

function namedKey(key: Key): string | undefined {
  if (key.return) return 'enter';
  if (key.escape) return 'escape';
  if (key.tab) return 'tab';
  // Terminals send either code for the Backspace key; Ink names them backspace and delete.
  if (key.backspace || key.delete) return 'backspace';
  if (key.upArrow) return 'up';
  if (key.downArrow) return 'down';
  if (key.leftArrow) return 'left';
  if (key.rightArrow) return 'right';
  if (key.home) return 'home';
  if (key.end) return 'end';
  if (key.pageUp) return 'pageup';
  if (key.pageDown) return 'pagedown';
  return undefined;
}

function withModifiers(base: string, ctrl: boolean, alt: boolean, shift: boolean): string {
  return `${ctrl ? 'ctrl+' : ''}${alt ? 'alt+' : ''}${shift ? 'shift+' : ''}${base}`;
}

/** A key as written in the file, in the form keyName gives; or why it is not a key. */
export function parseKeyName(text: string): { key: string } | { problem: string } {
  const parts = text.trim().toLowerCase().split('+');
  // `ctrl++` is ctrl and the plus key.
  if (parts.length > 1 && parts.at(-1) === '' && parts.at(-2) === '') parts.splice(-2, 2, '+');
  const base = SYNONYMS[parts.at(-1) ?? ''] ?? parts.at(-1) ?? '';
  const modifiers = new Set<string>();
  for (const part of parts.slice(0, -1)) {
    const modifier = SYNONYMS[part] ?? part;
    if (!(MODIFIERS as readonly string[]).includes(modifier))
      return { problem: `"${part}" is not ctrl, alt or shift` };
    modifiers.add(modifier);
  }
  const named = (NAMED_KEYS as readonly string[]).includes(base);
  if (!named && [...base].length !== 1)
    return { problem: `"${base}" is not a key (keys look like ctrl+o, alt+enter, shift+tab, escape, up)` };
  if (!named && !modifiers.has('ctrl') && !modifiers.has('alt'))
    return { problem: 'a character needs ctrl or alt, or it could not be typed' };
  if (!named && modifiers.has('shift')) return { problem: 'shift goes with a named key only (shift+tab)' };
  if (base === 'escape' && modifiers.size > 0) return { problem: 'escape takes no modifiers' };
  const key = withModifiers(base, modifiers.has('ctrl'), modifiers.has('alt'), modifiers.has('shift'));
  return { key };
}
