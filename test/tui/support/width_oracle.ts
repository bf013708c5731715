import { graphemeClusters } from '../../../src/tui/render/graphemes.js';

/** The emoji blocks, checked with the multilingual plane in the main suite. */
export const EMOJI_BLOCKS: [number, number] = [0x1f000, 0x1faff];

const icu = new Intl.Segmenter();

/** ICU's grapheme clusters of a text. */
export const icuClusters = (text: string): string[] => Array.from(icu.segment(text), (part) => part.segment);

/**
 * The code points (hex) in [from, to] that the UI splits into clusters otherwise than ICU, each
 * between two letters (so one that joins the letter before shows up too); lone surrogates and
 * `skip`'s ranges are left out.
 */
export function segmentationDifferences(
  from: number,
  to: number,
  skip: Array<[number, number]> = [],
): string[] {
  const differ: string[] = [];
  for (let cp = from; cp <= to; cp++) {
    if ((cp >= 0xd800 && cp <= 0xdfff) || skip.some(([a, b]) => cp >= a && cp <= b)) continue;
    const text = `a${String.fromCodePoint(cp)}b`;
    if (JSON.stringify([...graphemeClusters(text)]) !== JSON.stringify(icuClusters(text)))
      differ.push(cp.toString(16));
  }
  return differ;
}
