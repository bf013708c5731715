import stringWidthPackage from 'string-width';
import { GraphemeSegmenter } from '../../../src/tui/render/graphemes.js';
import stringWidth from '../../../src/tui/render/string_width.js';

/**
 * The code points (hex) in [from, to] to which lathe's measure and string-width give different
 * widths, ambiguous ones narrow or wide; lone surrogates and `skip`'s ranges are left out.
 */
export function widthDifferences(from: number, to: number, skip: Array<[number, number]> = []): string[] {
  const differ: string[] = [];
  const wide = { ambiguousIsNarrow: false };
  for (let cp = from; cp <= to; cp++) {
    if ((cp >= 0xd800 && cp <= 0xdfff) || skip.some(([a, b]) => cp >= a && cp <= b)) continue;
    const text = String.fromCodePoint(cp);
    if (
      stringWidth(text) !== stringWidthPackage(text) ||
      stringWidth(text, wide) !== stringWidthPackage(text, wide)
    )
      differ.push(cp.toString(16));
  }
  return differ;
}

/** The emoji blocks, checked with the multilingual plane in the main suite. */
export const EMOJI_BLOCKS: [number, number] = [0x1f000, 0x1faff];

/** Segments as pairs of text and index, to compare. */
export const plain = (segments: Intl.Segments) =>
  Array.from(segments, ({ segment, index }) => [segment, index]);

/**
 * The code points (hex) in [from, to] that lathe's grapheme segmenter splits otherwise than ICU,
 * each between two letters (so one that joins the letter before shows up too).
 */
export function segmentationDifferences(
  from: number,
  to: number,
  skip: Array<[number, number]> = [],
): string[] {
  const icu = new Intl.Segmenter();
  const ours = new GraphemeSegmenter();
  const differ: string[] = [];
  for (let cp = from; cp <= to; cp++) {
    if ((cp >= 0xd800 && cp <= 0xdfff) || skip.some(([a, b]) => cp >= a && cp <= b)) continue;
    const text = `a${String.fromCodePoint(cp)}b`;
    if (JSON.stringify(plain(ours.segment(text))) !== JSON.stringify(plain(icu.segment(text))))
      differ.push(cp.toString(16));
  }
  return differ;
}
