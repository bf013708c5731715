/**
 * Styled text as plain data: a line is a list of spans, each with an optional style. Everything
 * the UI shows is built as lines first (cheap to wrap, clip and cache), and turned into ANSI only
 * at the end, through the active theme (themes.ts). Colours are named by role, never by hue, so
 * a theme decides every one. NO_COLOR (https://no-color.org) and TERM=dumb force the plain theme;
 * bold, dim and inverse stay, since they are not colours and the cursor needs inverse.
 */
import type { Background, Color } from './roles.js';
import { isThemeName, THEME_NAMES, THEMES, type Theme, type ThemeName } from './themes.js';

export type { Background, Color };

export interface Style {
  color?: Color;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
  background?: Background;
}

export interface Span {
  text: string;
  style?: Style;
}

export type Line = Span[];

export function colorsEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

/** Decided once: the environment of a running terminal UI does not change. */
const COLORS = colorsEnabled();

let active: Theme = COLORS ? THEMES.dark : THEMES.plain;

/** The theme a name asks for, or plain when the terminal must not get colours. */
export function themeFor(name: ThemeName, colors = COLORS): Theme {
  return colors ? THEMES[name] : THEMES.plain;
}

/** Switches the theme for what is drawn from now on; returns the one in effect. */
export function setTheme(name: ThemeName): ThemeName {
  active = themeFor(name);
  return active.name;
}

export function activeTheme(): Theme {
  return active;
}

export { isThemeName, THEME_NAMES, THEMES, type Theme, type ThemeName };

/** The styles the UI draws with, by what they mean: a diff's bands, changed words and gutter. */
export const STYLES = {
  diffRemoved: { background: 'removedLine' },
  diffAdded: { background: 'addedLine' },
  diffRemovedWord: { background: 'removedWord' },
  diffAddedWord: { background: 'addedWord' },
  diffRemovedMark: { color: 'removed', background: 'removedLine' },
  diffAddedMark: { color: 'added', background: 'addedLine' },
  lineNumber: { color: 'muted' },
  diffGap: { color: 'muted' },
  keyHint: { color: 'muted' },
  key: { bold: true },
} satisfies Record<string, Style>;

/** The roles of highlighted code, by what a token is (keyword, string, comment, …). */
export const CODE_STYLES = {
  keyword: { color: 'keyword' },
  string: { color: 'string' },
  comment: { color: 'comment' },
  number: { color: 'number' },
  type: { color: 'type' },
  function: { color: 'function' },
  constant: { color: 'constant' },
  property: { color: 'property' },
} satisfies Record<string, Style>;

export type CodeRole = keyof typeof CODE_STYLES;

const ATTRIBUTES: [keyof Style, string][] = [
  ['bold', '1'],
  ['dim', '2'],
  ['italic', '3'],
  ['underline', '4'],
  ['inverse', '7'],
  ['strike', '9'],
];

function sgr(style: Style, theme: Theme): string {
  const codes = new Set<string>();
  for (const [key, code] of ATTRIBUTES) if (style[key]) codes.add(code);
  if (style.color && theme.codes[style.color]) codes.add(theme.codes[style.color]);
  if (style.background && theme.codes[style.background]) codes.add(theme.codes[style.background]);
  return codes.size > 0 ? `\x1b[${[...codes].join(';')}m` : '';
}

export function spanToAnsi(span: Span, theme = active): string {
  if (!span.style || span.text === '') return span.text;
  const open = sgr(span.style, theme);
  return open ? `${open}${span.text}\x1b[0m` : span.text;
}

export function lineToAnsi(line: Line, theme = active): string {
  let out = '';
  for (const span of line) out += spanToAnsi(span, theme);
  return out;
}

export function linesToAnsi(lines: Line[], theme = active): string {
  return lines.map((line) => lineToAnsi(line, theme)).join('\n');
}

export function plainText(line: Line): string {
  let out = '';
  for (const span of line) out += span.text;
  return out;
}

export const span = (text: string, style?: Style): Span => (style ? { text, style } : { text });

/** One line of one style. */
export const styledLine = (text: string, style?: Style): Line => [span(text, style)];

const ANSI_PATTERN = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}
