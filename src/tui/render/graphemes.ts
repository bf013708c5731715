/**
 * Code points a grapheme cluster joins to another: marks and joiners, flags' regional indicators,
 * skin tones, tags, Hangul jamo, CR (of CR LF), and what the regular expressions of JavaScript
 * cannot name: the Prepend class (Arabic number signs and the like) and the spacing marks that are
 * letters (Thai and Lao AM). A text without any is one cluster per code point.
 */
const JOINS =
  /\u200d|[\p{Grapheme_Extend}\p{Mc}\p{Regional_Indicator}\p{Emoji_Modifier}\u{E0020}-\u{E007F}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\u{113d1}\u0e33\u0eb3\r]/u;

/** Whether a text holds code points a grapheme cluster joins: without any, each code point is a character. */
const joinsCodePoints = (text: string): boolean => JOINS.test(text);

/** Made at the first text that needs it; Ink's tokenizers have made theirs (and loaded ICU's data) by then. */
let segmenter: Intl.Segmenter | undefined;

/**
 * A text's grapheme clusters, what a terminal draws as one character each. Text without joining
 * code points is one cluster per code point, split without asking ICU, which is much cheaper
 * for the plain text most lines are and gives the same clusters (checked for every code point).
 */
export function graphemeClusters(text: string): Iterable<string> {
  if (!joinsCodePoints(text)) return text;
  segmenter ??= new Intl.Segmenter();
  return Array.from(segmenter.segment(text), (part) => part.segment);
}
