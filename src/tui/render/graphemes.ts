/**
 * Code points a grapheme cluster joins to another: marks and joiners, flags' regional indicators,
 * skin tones, tags, Hangul jamo, CR (of CR LF), and what the regular expressions of JavaScript
 * cannot name: the Prepend class (Arabic number signs and the like) and the spacing marks that are
 * letters (Thai and Lao AM). A text without any is one cluster per code point.
 */
const JOINS =
  /\u200d|[\p{Grapheme_Extend}\p{Mc}\p{Regional_Indicator}\p{Emoji_Modifier}\u{E0020}-\u{E007F}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u0d4e\u{110bd}\u{110cd}\u{111c2}\u{111c3}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}\u{113d1}\u0e33\u0eb3\r]/u;

/** Whether a text holds code points a grapheme cluster joins: without any, each code point is a character. */
export const joinsCodePoints = (text: string): boolean => JOINS.test(text);

/**
 * Intl.Segmenter by grapheme clusters that makes ICU's segmenter only for text that needs it:
 * the first one a process makes costs about 25 ms (ICU loads its data), and the UI's libraries
 * make theirs as they load, before the first frame. Text without joining code points is split
 * into code points, which is what ICU gives for it. The build gives this to the UI's libraries
 * in place of Intl.Segmenter (scripts/bundle.mjs).
 */
export class GraphemeSegmenter {
  private icu?: Intl.Segmenter;

  constructor(
    private readonly locales?: string | string[],
    private readonly options?: Intl.SegmenterOptions,
  ) {
    if (options?.granularity && options.granularity !== 'grapheme')
      throw new RangeError('GraphemeSegmenter splits grapheme clusters only');
  }

  segment(input: string): Intl.Segments {
    if (joinsCodePoints(input)) return this.segmenter().segment(input);
    return codePoints(input);
  }

  resolvedOptions(): Intl.ResolvedSegmenterOptions {
    return this.segmenter().resolvedOptions();
  }

  private segmenter(): Intl.Segmenter {
    this.icu ??= new Intl.Segmenter(this.locales, this.options);
    return this.icu;
  }
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** The code point starting at `index`, as a segment. */
function segmentAt(input: string, index: number): Intl.SegmentData {
  const wide = isHighSurrogate(input.charCodeAt(index)) && isLowSurrogate(input.charCodeAt(index + 1));
  return { segment: input.slice(index, index + (wide ? 2 : 1)), index, input };
}

/** A text's code points as Intl.Segments (iteration and `containing`). */
function codePoints(input: string): Intl.Segments {
  const segments = {
    *[Symbol.iterator]() {
      for (let index = 0; index < input.length; ) {
        const data = segmentAt(input, index);
        yield data;
        index += data.segment.length;
      }
    },
    containing(at = 0) {
      const index = Math.trunc(Number(at));
      if (!(index >= 0 && index < input.length)) return undefined;
      const inPair =
        index > 0 && isLowSurrogate(input.charCodeAt(index)) && isHighSurrogate(input.charCodeAt(index - 1));
      return segmentAt(input, inPair ? index - 1 : index);
    },
  };
  // A generator where Intl declares its own iterator type: the same protocol.
  return segments as unknown as Intl.Segments;
}
