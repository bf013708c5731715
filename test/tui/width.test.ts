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
