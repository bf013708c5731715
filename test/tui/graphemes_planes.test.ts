import { describe, expect, it } from 'vitest';
import { EMOJI_BLOCKS, segmentationDifferences } from './support/width_oracle.js';

describe("the UI's text beyond the multilingual plane", () => {
  it('is split as ICU splits each code point between two letters', () => {
    expect(segmentationDifferences(0x10000, 0x10ffff, [EMOJI_BLOCKS])).toEqual([]);
  }, 300_000);
});
