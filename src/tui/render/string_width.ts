import { eastAsianWidth } from 'get-east-asian-width';
import stripAnsi from 'strip-ansi';
import { GraphemeSegmenter, joinsCodePoints } from './graphemes.js';

/**
 * Columns a string takes in a terminal, by string-width's rules (version 8), with its costly
 * parts made at their first need: ICU's segmenter (about 25 ms to make) and the RGI emoji
 * expression (about 35 ms) matter only for text that joins code points into one character
 * (emoji sequences, combining marks, flags, Hangul jamo); other text is measured code point by
 * code point, which gives the same widths. string-width makes both when it loads, before the UI's
 * first frame. The build gives this module to Ink and its helpers in its place (scripts/bundle.mjs).
 */
export default function stringWidth(input: string, options: WidthOptions = {}): number {
  if (typeof input !== 'string' || input.length === 0) return 0;
  let text = input;
  if (!options.countAnsiEscapeCodes && (text.includes('\u001B') || text.includes('\u009B')))
    text = stripAnsi(text);
  if (isPrintableAscii(text)) return text.length;
  const wide = { ambiguousAsWide: options.ambiguousIsNarrow === false };
  let width = 0;
  if (!joinsCodePoints(text)) {
    for (const character of text) width += codePointWidth(character, wide);
    return width;
  }
  for (const { segment } of graphemes.segment(text)) width += clusterWidth(segment, wide);
  return width;
}

export interface WidthOptions {
  ambiguousIsNarrow?: boolean;
  countAnsiEscapeCodes?: boolean;
}

type Wide = { ambiguousAsWide: boolean };

const PRINTABLE_ASCII = /^[\u0020-\u007E]*$/;
/** Printable ASCII only: one column a character, measured without segmenting. */
export const isPrintableAscii = (text: string): boolean => PRINTABLE_ASCII.test(text);
/** A code point that prints (not ignorable, a control, a format character, a non-spacing or enclosing mark). */
const VISIBLE =
  /[^\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]/u;
/** Alone, a code point is an RGI emoji exactly when it has emoji presentation (checked for every code point). */
const EMOJI_ALONE = /^\p{Emoji_Presentation}$/u;
const SPACING_MARK = /\p{Spacing_Mark}/u;
const UNQUALIFIED_KEYCAP = /^[\d#*]\u20E3$/;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/gu;

const graphemes = new GraphemeSegmenter();
let madeRgiEmoji: RegExp | undefined;
const isRgiEmoji = (cluster: string) => {
  // biome-ignore lint/complexity/useRegexLiterals: the v flag is newer than the compiler's target.
  madeRgiEmoji ??= new RegExp('^\\p{RGI_Emoji}$', 'v');
  return madeRgiEmoji.test(cluster);
};

function codePointWidth(character: string, wide: Wide): number {
  if (!VISIBLE.test(character)) return 0;
  if (EMOJI_ALONE.test(character)) return 2;
  return eastAsianWidth(character.codePointAt(0) ?? 0, wide);
}

/** One grapheme cluster's columns, measured from its first visible code point. */
function clusterWidth(cluster: string, wide: Wide): number {
  const start = cluster.search(VISIBLE);
  if (start === -1) return 0;
  if (isRgiEmoji(cluster) || isUnqualifiedEmoji(cluster)) return 2;
  const visible = cluster.slice(start);
  const hangul = hangulWidth(visible, wide);
  if (hangul !== undefined) return hangul;
  let width = eastAsianWidth(visible.codePointAt(0) ?? 0, wide);
  let first = true;
  // Spacing marks and halfwidth/fullwidth forms after the first code point take columns too.
  for (const character of visible) {
    if (first) first = false;
    else if (SPACING_MARK.test(character) || (character >= '\uFF00' && character <= '\uFFEF'))
      width += eastAsianWidth(character.codePointAt(0) ?? 0, wide);
  }
  return width;
}

/** Emoji sequences drawn double width though not RGI: a keycap without VS16, a ZWJ sequence of pictographs. */
function isUnqualifiedEmoji(cluster: string): boolean {
  if (cluster.length > 50) return false;
  if (UNQUALIFIED_KEYCAP.test(cluster)) return true;
  return cluster.includes('\u200D') && (cluster.match(PICTOGRAPHIC)?.length ?? 0) >= 2;
}

const isLeadingJamo = (cp: number) => (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0xa960 && cp <= 0xa97c);
const isVowelJamo = (cp: number) => (cp >= 0x1160 && cp <= 0x11a7) || (cp >= 0xd7b0 && cp <= 0xd7c6);
const isTrailingJamo = (cp: number) => (cp >= 0x11a8 && cp <= 0x11ff) || (cp >= 0xd7cb && cp <= 0xd7fb);
const isJamo = (cp: number) => isLeadingJamo(cp) || isVowelJamo(cp) || isTrailingJamo(cp);

/**
 * Hangul jamo: a leading jamo with a vowel (and a trailing one) makes one syllable, 2 columns;
 * unmatched jamo count on their own. Undefined when the cluster does not start with jamo.
 */
function hangulWidth(visible: string, wide: Wide): number | undefined {
  const points: number[] = [];
  for (const character of visible) if (VISIBLE.test(character)) points.push(character.codePointAt(0) ?? 0);
  if (points.length === 0 || !isJamo(points[0])) return undefined;
  let width = 0;
  for (let i = 0; i < points.length; i++) {
    const cp = points[i];
    if (!isJamo(cp)) {
      for (const rest of points.slice(i)) width += eastAsianWidth(rest, wide);
      return width;
    }
    if (isLeadingJamo(cp) && isVowelJamo(points[i + 1])) {
      width += 2;
      i += isTrailingJamo(points[i + 2]) ? 2 : 1;
      continue;
    }
    width += eastAsianWidth(cp, wide);
  }
  return width;
}
