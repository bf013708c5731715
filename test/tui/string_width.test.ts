import stringWidthPackage from 'string-width';
import { describe, expect, it } from 'vitest';
import stringWidth from '../../src/tui/render/string_width.js';
import { EMOJI_BLOCKS, widthDifferences } from './support/width_oracle.js';

// lathe's measure stands in for string-width in the built UI (Ink and its helpers use it): it
// must give the same width for every text. Checked here against the package itself; the other
// planes' code points in string_width_planes.test.ts (a slow test).

const SEQUENCES = [
  'plain ascii',
  '',
  'tab\there',
  'line\r\nbreak',
  '\u001b[31mred\u001b[39m and \u001b[1mbold\u001b[22m',
  '中文字 かな ＡＢ ｶﾞ ﾊﾟ',
  '한국어 \u1100\u1161\u11a8 \u1100\u1100\u1161 \ua960\ud7b0 \u1100가',
  '👩‍💻 👨‍👩‍👧‍👦 🏳️‍🌈 🇯🇵 🇺 ❤️ ✅ ❌ 🚀 👍🏽 1️⃣ 1⃣ #⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿',
  'é (e\u0301) n\u0303 a\u20dd \u200b\u200d\ufeff',
  'नमस्ते क्षत्रिय த்ரி ดีครับ',
  '\u0600\u0661\u0662 \u0d4eക \u{110bd}\u{11083}',
  '☺ ☺️ ✌ ✌️ ⚠ ⚠️ © ®️ ™',
  '\u{1f3fb} \u{e0061} \u{1f1e6}\u{1f1e8}\u{1f1e6}',
  '…─│●○◆▸›⏺⎿ ·',
];

describe('the terminal width lathe measures', () => {
  it('is string-width’s for each code point of the multilingual plane and the emoji blocks', () => {
    expect(widthDifferences(0, 0xffff)).toEqual([]);
    expect(widthDifferences(...EMOJI_BLOCKS)).toEqual([]);
  });

  it('is string-width’s for emoji sequences, combining marks, jamo, scripts and ANSI colours', () => {
    for (const text of SEQUENCES) {
      expect(stringWidth(text), text).toBe(stringWidthPackage(text));
      for (const word of text.split(' ')) expect(stringWidth(word), word).toBe(stringWidthPackage(word));
      expect(stringWidth(text, { countAnsiEscapeCodes: true }), text).toBe(
        stringWidthPackage(text, { countAnsiEscapeCodes: true }),
      );
    }
  });
});
