import { describe, expect, it } from 'vitest';
import { GraphemeSegmenter } from '../../src/tui/render/graphemes.js';
import { EMOJI_BLOCKS, plain, segmentationDifferences } from './support/width_oracle.js';

// The UI's tokenizers get this segmenter in place of Intl.Segmenter (scripts/bundle.mjs): it must
// split every text as ICU does, and find the same cluster at every index. The other planes' code
// points are checked in string_width_planes.test.ts (a slow test).

const icu = new Intl.Segmenter();
const ours = new GraphemeSegmenter();

const TEXTS = [
  'plain ascii',
  '',
  '\u001b[31mred\u001b[39m',
  'line\r\nbreak\rcr\nlf',
  '中文 かな ＡＢ ｶﾞ',
  '👩‍💻 🇯🇵 ❤️ 👍🏽 1️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 😀🚀',
  'é e\u0301 क्ष \u1100\u1161 \u0600\u0661',
  'lone \ud800 surrogates \udc00 here',
];

describe('the grapheme segmenter of the UI', () => {
  it('splits as ICU does, and finds the same cluster at each index', () => {
    for (const text of TEXTS) {
      expect(plain(ours.segment(text)), text).toEqual(plain(icu.segment(text)));
      for (let i = -1; i <= text.length; i++) {
        const theirs = icu.segment(text).containing(i);
        const mine = ours.segment(text).containing(i);
        expect(mine && [mine.segment, mine.index], `${text} at ${i}`).toEqual(
          theirs && [theirs.segment, theirs.index],
        );
      }
    }
  });

  it('splits each code point of the multilingual plane and the emoji blocks as ICU does', () => {
    expect(segmentationDifferences(0, 0xffff)).toEqual([]);
    expect(segmentationDifferences(...EMOJI_BLOCKS)).toEqual([]);
  });

  it('takes only grapheme granularity', () => {
    expect(() => new GraphemeSegmenter(undefined, { granularity: 'word' })).toThrow(RangeError);
  });
});
