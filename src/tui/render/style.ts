/**
 * Styled text as plain data: a line is a list of spans, each with an optional style. Everything
 * the UI shows is built as lines first (cheap to wrap, clip and cache), and turned into ANSI only
 * at the end. Colours honour NO_COLOR (https://no-color.org) and TERM=dumb; bold, dim and
 * inverse stay, since they are not colours and the cursor needs inverse.
 */

export type Color = 'red' | 'green' | 'yellow' | 'blue' | 'magenta' | 'cyan' | 'white' | 'gray';

/** Backgrounds, named by what they mark: the bands of a diff's lines and of its changed words. */
export type Background = 'removedLine' | 'addedLine' | 'removedWord' | 'addedWord';

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

const COLOR_CODES: Record<Color, number> = {
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
};

/** 256-colour backgrounds: dark bands that keep the text on them readable. */
const BACKGROUND_CODES: Record<Background, string> = {
  removedLine: '48;5;52',
  addedLine: '48;5;22',
  removedWord: '48;5;124',
  addedWord: '48;5;28',
};

/**
 * The styles the UI draws with, by what they mean (one place, so a theme can replace them). A
 * diff's bands and changed words; without colours, changed words are underlined instead.
 */
export const STYLES = {
  diffRemoved: { background: 'removedLine' },
  diffAdded: { background: 'addedLine' },
  diffRemovedWord: { background: 'removedWord', underline: !COLORS },
  diffAddedWord: { background: 'addedWord', underline: !COLORS },
  diffRemovedMark: { color: 'red', background: 'removedLine' },
  diffAddedMark: { color: 'green', background: 'addedLine' },
  lineNumber: { color: 'gray' },
  diffGap: { color: 'gray' },
  keyHint: { color: 'gray' },
  key: { bold: true },
} satisfies Record<string, Style>;

/** The roles of highlighted code, by what a token is (keyword, string, comment, …). */
export const CODE_STYLES = {
  keyword: { color: 'magenta' },
  string: { color: 'green' },
  comment: { color: 'gray' },
  number: { color: 'yellow' },
  type: { color: 'cyan' },
  function: { color: 'blue' },
  constant: { color: 'yellow' },
  property: { color: 'cyan' },
} satisfies Record<string, Style>;

export type CodeRole = keyof typeof CODE_STYLES;

function sgr(style: Style, colors: boolean): string {
  const codes: number[] = [];
  if (style.bold) codes.push(1);
  if (style.dim) codes.push(2);
  if (style.italic) codes.push(3);
  if (style.underline) codes.push(4);
  if (style.inverse) codes.push(7);
  if (style.strike) codes.push(9);
  if (colors && style.color) codes.push(COLOR_CODES[style.color]);
  const open = codes.join(';');
  const background = colors && style.background ? BACKGROUND_CODES[style.background] : '';
  if (background) return `\x1b[${open ? `${open};` : ''}${background}m`;
  // Without colours, gray text would look like any other: dim keeps it quieter.
  if (!colors && style.color === 'gray' && !style.dim) codes.push(2);
  return codes.length > 0 ? `\x1b[${codes.join(';')}m` : '';
}

export function spanToAnsi(span: Span, colors = COLORS): string {
  if (!span.style || span.text === '') return span.text;
  const open = sgr(span.style, colors);
  return open ? `${open}${span.text}\x1b[0m` : span.text;
}

export function lineToAnsi(line: Line, colors = COLORS): string {
  let out = '';
  for (const span of line) out += spanToAnsi(span, colors);
  return out;
}

export function linesToAnsi(lines: Line[], colors = COLORS): string {
  return lines.map((line) => lineToAnsi(line, colors)).join('\n');
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
