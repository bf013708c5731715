import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkEncodable,
  decodeText,
  encodeText,
  isProbablyBinary,
  type TextFormat,
} from '../../src/edit/codec.js';

const bytes = (...values: number[]) => new Uint8Array(values);
const utf8 = (text: string) => new TextEncoder().encode(text);

function decodeOk(input: Uint8Array) {
  const result = decodeText(input);
  if (!result.ok) throw new Error(result.error);
  return result;
}

function roundTrips(input: Uint8Array): boolean {
  const result = decodeText(input);
  return result.ok && Buffer.from(encodeText(result.text, result.format)).equals(Buffer.from(input));
}

describe('decodeText / encodeText', () => {
  it('decodes plain UTF-8 and describes its format', () => {
    expect(decodeText(utf8('héllo\nwörld\n'))).toEqual({
      ok: true,
      text: 'héllo\nwörld\n',
      format: { encoding: 'utf8', eol: '\n', finalNewline: true },
    });
    expect(decodeText(new Uint8Array())).toEqual({
      ok: true,
      text: '',
      format: { encoding: 'utf8', eol: '\n', finalNewline: false },
    });
  });

  it('strips a UTF-8 BOM from the text and writes it back', () => {
    const input = bytes(0xef, 0xbb, 0xbf, ...utf8('a\r\nb'));
    const result = decodeOk(input);
    expect(result.text).toBe('a\r\nb');
    expect(result.format).toEqual({ encoding: 'utf8-bom', eol: '\r\n', finalNewline: false });
    expect(encodeText('x', result.format)).toEqual(bytes(0xef, 0xbb, 0xbf, 0x78));
  });

  it('decodes UTF-16 with either byte order', () => {
    expect(decodeOk(bytes(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00))).toMatchObject({
      text: 'a\n',
      format: { encoding: 'utf16le' },
    });
    const be = bytes(0xfe, 0xff, 0x00, 0x61, 0x20, 0xac);
    expect(decodeOk(be)).toMatchObject({ text: 'a€', format: { encoding: 'utf16be' } });
    expect(roundTrips(be)).toBe(true);
    expect(decodeText(bytes(0xff, 0xfe, 0x61))).toEqual({
      ok: false,
      error: 'UTF-16 file with an odd number of bytes (3 bytes): not edited',
    });
  });

  it('refuses binary files with their size', () => {
    const binary = new Uint8Array(12_345).fill(0x41);
    binary[100] = 0;
    expect(decodeText(binary)).toEqual({ ok: false, error: 'binary file (12,345 bytes): not edited' });
    expect(decodeText(bytes(1, 2, 3, 0x41, 0x42))).toEqual({
      ok: false,
      error: 'binary file (5 bytes): not edited',
    });
    expect(decodeText(bytes(0xff, 0xfe, 0x00, 0x00, 0x41, 0x00)).ok).toBe(false);
  });

  it('decodes invalid UTF-8 that is not binary as latin1, byte for byte', () => {
    const input = bytes(0x63, 0x61, 0x66, 0xe9, 0x0a);
    expect(decodeOk(input)).toMatchObject({ text: 'café\n', format: { encoding: 'latin1' } });
    expect(roundTrips(input)).toBe(true);
  });

  it('keeps mixed line endings in the text and reports the dominant one', () => {
    const result = decodeOk(utf8('a\r\nb\r\nc\n'));
    expect(result.text).toBe('a\r\nb\r\nc\n');
    expect(result.format.eol).toBe('\r\n');
  });
});

describe('isProbablyBinary / checkEncodable', () => {
  it('describes a CR file as CR, with its final newline', () => {
    expect(decodeOk(utf8('a\rb\r')).format).toEqual({ encoding: 'utf8', eol: '\r', finalNewline: true });
    expect(decodeOk(utf8('a\rb')).format).toEqual({ encoding: 'utf8', eol: '\r', finalNewline: false });
    // In an LF file a lone CR at the end is text, not a line break.
    expect(decodeOk(utf8('a\nb\nc\r')).format).toMatchObject({ eol: '\n', finalNewline: false });
  });

  it('looks at the first 8 KB only and tolerates text control characters', () => {
    const late = new Uint8Array(10_000).fill(0x61);
    late[9_000] = 0;
    expect(isProbablyBinary(late)).toBe(false);
    expect(isProbablyBinary(utf8('\x1b[31mred\x1b[0m\t\f\v\r\n'))).toBe(false);
    expect(isProbablyBinary(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00))).toBe(true);
  });

  it('reports characters an encoding cannot hold', () => {
    const latin1: TextFormat = { encoding: 'latin1', eol: '\n', finalNewline: true };
    expect(checkEncodable('ok\ncafé ✅\n', latin1)).toEqual({
      ok: false,
      error: 'line 2: character U+2705 cannot be written in this latin1 file',
    });
    expect(checkEncodable('café', latin1)).toEqual({ ok: true });
    expect(checkEncodable('a\ud800b', { ...latin1, encoding: 'utf8' }).ok).toBe(false);
    expect(checkEncodable('a\ud800b', { ...latin1, encoding: 'utf16le' }).ok).toBe(true);
  });
});

describe('codec round trip', () => {
  const RUNS = { numRuns: 10_000 };
  /** Characters a text file may hold: anything but NUL and binary-looking controls. */
  const textChar = fc
    .oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('\n', '\r\n', '\r', '\t', 'a', ' ', 'é', '✅', '\u{1f600}'),
    )
    .filter((s) => !/[\u0000-\u0008\u000e-\u001a\u001c-\u001f\u007f]/.test(s));
  // A leading U+FEFF would read back as a BOM (the bytes still round-trip; the text would not).
  const text = fc
    .array(textChar, { maxLength: 60 })
    .map((parts) => parts.join(''))
    .filter((content) => !content.startsWith('\ufeff'));
  const encoding = fc.constantFrom('utf8', 'utf8-bom', 'utf16le', 'utf16be') as fc.Arbitrary<
    TextFormat['encoding']
  >;

  it('encodes decoded text files back to the same bytes', () => {
    fc.assert(
      fc.property(text, encoding, (content, chosen) => {
        const original = encodeText(content, { encoding: chosen, eol: '\n', finalNewline: false });
        const result = decodeText(original);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.text).toBe(content);
        expect(Buffer.from(encodeText(result.text, result.format)).equals(Buffer.from(original))).toBe(true);
      }),
      RUNS,
    );
  });

  it('round-trips any byte sequence it accepts, including latin1 and lone UTF-16 surrogates', () => {
    const printableByte = fc
      .integer({ min: 0, max: 255 })
      .filter((b) => b >= 0x20 || b === 0x0a || b === 0x0d || b === 0x09);
    const latin1ish = fc.uint8Array({ maxLength: 80 }).map((b) => b.map((v) => (v < 0x20 ? 0x41 : v)));
    const anyBytes = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      latin1ish,
      fc.array(printableByte, { maxLength: 80 }).map((b) => Uint8Array.from(b)),
      fc
        .array(fc.integer({ min: 0x20, max: 0xffff }), { maxLength: 40 })
        .map((units) => Uint8Array.from([0xff, 0xfe, ...units.flatMap((u) => [u & 0xff, u >> 8])])),
    );
    fc.assert(
      fc.property(anyBytes, (input) => {
        const result = decodeText(input);
        if (result.ok) {
          expect(Buffer.from(encodeText(result.text, result.format)).equals(Buffer.from(input))).toBe(true);
        } else {
          expect(result.error).toMatch(/not edited$/);
        }
      }),
      RUNS,
    );
  });
});
