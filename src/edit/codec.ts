import { detectEol, type Eol } from './line_endings.js';

/**
 * Bytes <-> text for the editing tools. Decoding remembers everything needed to write the file
 * back byte for byte (encoding, BOM); line endings are left in the text untouched because the
 * engines handle them, and `format.eol` / `format.finalNewline` only describe what was found.
 */

export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be' | 'latin1';

export interface TextFormat {
  encoding: TextEncoding;
  /** The dominant line ending ("\n" when there is none; see line_endings.ts). */
  eol: Eol;
  finalNewline: boolean;
}

export type DecodeResult = { ok: true; text: string; format: TextFormat } | { ok: false; error: string };

/** How much of a file the binary sniffing looks at, as git and most editors do. */
const SAMPLE_BYTES = 8192;
/** Share of control characters above which a file is taken for binary. */
const CONTROL_SHARE_LIMIT = 0.05;

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const UTF16LE_BOM = [0xff, 0xfe];
const UTF16BE_BOM = [0xfe, 0xff];

export function decodeText(bytes: Uint8Array): DecodeResult {
  const utf16 = utf16Encoding(bytes);
  if (utf16 !== null) {
    const body = bytes.subarray(2);
    if (body.length % 2 !== 0) {
      return {
        ok: false,
        error: `UTF-16 file with an odd number of bytes (${formatBytes(bytes)}): not edited`,
      };
    }
    if (isProbablyBinary(bytes)) return { ok: false, error: binaryError(bytes) };
    return decoded(decodeUtf16(body, utf16), utf16);
  }
  if (isProbablyBinary(bytes)) return { ok: false, error: binaryError(bytes) };
  if (startsWith(bytes, UTF8_BOM)) {
    const text = strictUtf8(bytes.subarray(3));
    if (text !== null) return decoded(text, 'utf8-bom');
  }
  const text = strictUtf8(bytes);
  // Not UTF-8 but not binary either: latin1 maps every byte to one character and back, so an
  // edit leaves all the bytes it did not touch exactly as they were.
  return text === null ? decoded(asBuffer(bytes).toString('latin1'), 'latin1') : decoded(text, 'utf8');
}

/**
 * Encodes `text` as `format` says. Line endings are written as they are in `text`. Check
 * `checkEncodable` first: characters the encoding cannot hold would be replaced.
 */
export function encodeText(text: string, format: TextFormat): Uint8Array {
  switch (format.encoding) {
    case 'utf8':
      return new TextEncoder().encode(text);
    case 'utf8-bom':
      return withPrefix(UTF8_BOM, new TextEncoder().encode(text));
    case 'utf16le':
      return withPrefix(UTF16LE_BOM, Buffer.from(text, 'utf16le'));
    case 'utf16be':
      return withPrefix(UTF16BE_BOM, Buffer.from(text, 'utf16le').swap16());
    case 'latin1':
      return withPrefix([], Buffer.from(text.replace(/[^\u0000-\u00ff]/g, '?'), 'latin1'));
  }
}

/** Whether `text` can be written in `format` without losing characters; a message if not. */
export function checkEncodable(
  text: string,
  format: TextFormat,
): { ok: true } | { ok: false; error: string } {
  const unencodable =
    format.encoding === 'latin1'
      ? /[^\u0000-\u00ff]/.exec(text)
      : format.encoding.startsWith('utf8')
        ? /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text)
        : null;
  if (unencodable === null) return { ok: true };
  const line = text.slice(0, unencodable.index).split('\n').length;
  const code = unencodable[0].codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
  return {
    ok: false,
    error: `line ${line}: character U+${code} cannot be written in this ${format.encoding} file`,
  };
}

/**
 * Sniffs the first 8 KB: a NUL byte (or NUL code unit, for UTF-16 with a BOM) or a large share
 * of control characters other than the whitespace and escape ones text files use.
 */
export function isProbablyBinary(bytes: Uint8Array): boolean {
  const utf16 = utf16Encoding(bytes);
  let controls = 0;
  let units = 0;
  if (utf16 !== null) {
    const end = Math.min(bytes.length - 1, 2 + SAMPLE_BYTES);
    for (let i = 2; i < end; i += 2) {
      const unit = utf16 === 'utf16le' ? bytes[i] | (bytes[i + 1] << 8) : (bytes[i] << 8) | bytes[i + 1];
      if (unit === 0) return true;
      if (isControl(unit)) controls++;
      units++;
    }
  } else {
    const end = Math.min(bytes.length, SAMPLE_BYTES);
    for (let i = 0; i < end; i++) {
      if (bytes[i] === 0) return true;
      if (isControl(bytes[i])) controls++;
    }
    units = end;
  }
  return units > 0 && controls / units > CONTROL_SHARE_LIMIT;
}

/** C0 controls and DEL, except tab, LF, VT, FF, CR and ESC (terminal colour codes in logs). */
function isControl(code: number): boolean {
  return (
    (code < 0x20 &&
      code !== 0x09 &&
      code !== 0x0a &&
      code !== 0x0b &&
      code !== 0x0c &&
      code !== 0x0d &&
      code !== 0x1b) ||
    code === 0x7f
  );
}

function utf16Encoding(bytes: Uint8Array): 'utf16le' | 'utf16be' | null {
  if (startsWith(bytes, UTF16LE_BOM)) return 'utf16le';
  if (startsWith(bytes, UTF16BE_BOM)) return 'utf16be';
  return null;
}

/** Code units are copied as they are, lone surrogates included, so the bytes round-trip. */
function decodeUtf16(body: Uint8Array, encoding: 'utf16le' | 'utf16be'): string {
  // swap16 works in place, so big-endian input is copied first.
  const buffer = encoding === 'utf16be' ? Buffer.from(body).swap16() : asBuffer(body);
  return buffer.toString('utf16le');
}

/** A Buffer over the same memory, without copying. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function strictUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

function decoded(text: string, encoding: TextEncoding): DecodeResult {
  const eol = detectEol(text);
  const finalNewline = text.endsWith('\n') || (eol === '\r' && text.endsWith('\r'));
  return { ok: true, text, format: { encoding, eol, finalNewline } };
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

function withPrefix(prefix: readonly number[], body: Uint8Array): Uint8Array {
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

function binaryError(bytes: Uint8Array): string {
  return `binary file (${formatBytes(bytes)}): not edited`;
}

function formatBytes(bytes: Uint8Array): string {
  return `${bytes.length.toLocaleString('en-US')} bytes`;
}
