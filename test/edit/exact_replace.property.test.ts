import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactReplace } from '../../src/edit/exact_replace.js';

const RUNS = { numRuns: 10_000 };

/** LF-only text from a small alphabet, so substrings repeat often. */
const lfText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\n', '$', '&'), maxLength: 40 });

/** A text plus a non-empty substring of it (so the search usually succeeds). */
const textWithPiece = lfText
  .filter((text) => text.length > 0)
  .chain((text) =>
    fc
      .tuple(fc.nat({ max: text.length - 1 }), fc.integer({ min: 1, max: text.length }))
      .map(([start, length]) => ({ text, piece: text.slice(start, start + length) })),
  );

function countOverlapping(text: string, piece: string): number {
  let count = 0;
  for (let at = text.indexOf(piece); at !== -1; at = text.indexOf(piece, at + 1)) count++;
  return count;
}

describe('exactReplace properties', () => {
  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.boolean(),
        (content, oldString, newString, all) => {
          const result = exactReplace(content, oldString, newString, all);
          if (!result.ok) expect(result.error.length).toBeGreaterThan(0);
        },
      ),
      RUNS,
    );
  });

  it('replaces exactly the unique occurrence, or refuses when it is not unique', () => {
    fc.assert(
      fc.property(textWithPiece, lfText, ({ text, piece }, replacement) => {
        fc.pre(piece !== replacement);
        const result = exactReplace(text, piece, replacement, false);
        if (countOverlapping(text, piece) === 1) {
          const at = text.indexOf(piece);
          const expected = text.slice(0, at) + replacement + text.slice(at + piece.length);
          expect(result).toEqual({ ok: true, content: expected, count: 1 });
        } else {
          expect(result.ok).toBe(false);
          if (!result.ok) expect(result.error).toMatch(/^old_string occurs \d+ times \(at lines [\d, ]+/);
        }
      }),
      RUNS,
    );
  });

  it('replace_all replaces every non-overlapping occurrence from the left', () => {
    fc.assert(
      fc.property(textWithPiece, lfText, ({ text, piece }, replacement) => {
        fc.pre(piece !== replacement);
        const parts = text.split(piece);
        expect(exactReplace(text, piece, replacement, true)).toEqual({
          ok: true,
          content: parts.join(replacement),
          count: parts.length - 1,
        });
      }),
      RUNS,
    );
  });

  it('behaves on a CRLF file exactly as on its LF form, writing CRLF', () => {
    const crlf = (text: string) => text.replaceAll('\n', '\r\n');
    fc.assert(
      fc.property(textWithPiece, lfText, fc.boolean(), ({ text, piece }, replacement, all) => {
        // A file without any line ending says nothing about which one it uses.
        fc.pre(piece !== replacement && text.includes('\n'));
        const onLf = exactReplace(text, piece, replacement, all);
        const onCrlf = exactReplace(crlf(text), piece, replacement, all);
        expect(onCrlf.ok).toBe(onLf.ok);
        if (onLf.ok && onCrlf.ok) {
          expect(onCrlf.content).toBe(crlf(onLf.content));
          expect(onCrlf.count).toBe(onLf.count);
        }
      }),
      RUNS,
    );
  });
});
