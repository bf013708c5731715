import { describe, expect, it } from 'vitest';
import { graphemeClusters } from '../../src/tui/render/graphemes.js';
import { EMOJI_BLOCKS, icuClusters, segmentationDifferences } from './support/width_oracle.js';

// The UI splits text without joining code points itself, one cluster per code point, and asks
// ICU for the rest: it must give ICU's clusters for every text. The other planes' code points are
// checked in graphemes_planes.test.ts (a slow test).

const TEXTS = [
  'plain ascii',
  '',
  'line\r\nbreak\rcr\nlf',
  '中文 かな ＡＢ ｶﾞ',
  '👩‍💻 🇯🇵 ❤️ 👍🏽 1️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 😀🚀',
  'é e\u0301 क्ष \u1100\u1161 \u0600\u0661',
  'lone \ud800 surrogates \udc00 here',
];

describe('the grapheme clusters of the UI', () => {
  it('are the ones ICU gives', () => {
    for (const text of TEXTS) expect([...graphemeClusters(text)], text).toEqual(icuClusters(text));
  });

  it('are ICU’s for each code point of the multilingual plane and the emoji blocks', () => {
    expect(segmentationDifferences(0, 0xffff)).toEqual([]);
    expect(segmentationDifferences(...EMOJI_BLOCKS)).toEqual([]);
  });
});
