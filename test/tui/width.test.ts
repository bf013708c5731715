import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { charWidth, textWidth, truncateText, wrapLine } from '../../src/tui/render/width.js';

const plain = (line: Array<{ text: string }>) => line.map((s) => s.text).join('');

describe('terminal width of emoji and CJK', () => {
  it('counts common emoji as two columns', () => {
    expect(textWidth('✅')).toBe(2);
    expect(textWidth('❌')).toBe(2);
    expect(textWidth('🚀')).toBe(2);
    expect(textWidth('done ✅')).toBe(7);
  });

  it('counts an emoji sequence as the one character a terminal draws', () => {
    expect(textWidth('👩‍💻')).toBe(2);
    expect(textWidth('🇯🇵')).toBe(2);
    expect(textWidth('❤️')).toBe(2);
  });

  it('counts CJK, Hangul and full-width forms as two columns', () => {
    expect(textWidth('中文字')).toBe(6);
    expect(textWidth('한국어')).toBe(6);
    expect(textWidth('ＡＢ')).toBe(4);
    expect(textWidth('かな abc')).toBe(8);
  });

  it('gives the prompt editor two columns for an emoji code point', () => {
    expect(charWidth('🚀'.codePointAt(0) ?? 0)).toBe(2);
    expect(charWidth('✅'.codePointAt(0) ?? 0)).toBe(2);
    expect(charWidth('a'.codePointAt(0) ?? 0)).toBe(1);
  });

  it('cuts before an emoji that would not fit, never inside it', () => {
    expect(truncateText('🚀🚀🚀🚀', 5)).toBe('🚀🚀…');
    expect(textWidth(truncateText('🚀🚀🚀🚀', 5))).toBe(5);
    expect(truncateText('👩‍💻👩‍💻👩‍💻', 4)).toBe('👩‍💻…');
  });

  it('breaks a long run of wide characters at whole characters', () => {
    expect(wrapLine([{ text: '✅✅✅' }], 4).map(plain)).toEqual(['✅✅', '✅']);
    expect(wrapLine([{ text: '中文字中文' }], 5).map(plain)).toEqual(['中文', '字中', '文']);
  });
});

// Ink lays text out by string-width; the UI's own wrapping and cutting must count the same columns.
const SEQUENCES = [
  'plain ascii',
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

describe('terminal width as Ink counts it', () => {
  it('is string-width’s for emoji sequences, combining marks, jamo and scripts, whole or word by word', () => {
    for (const text of SEQUENCES) {
      expect(textWidth(text), text).toBe(stringWidth(text));
      for (const word of text.split(' ')) expect(textWidth(word), word).toBe(stringWidth(word));
    }
  });
});
