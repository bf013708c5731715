import { pipeline, type Readable } from 'node:stream';
import { lazyBuiltin } from './lazy_builtin.js';

/** Node's response headers as one lower-case name to one value (repeated ones joined by ", ", as fetch does). */
export function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers))
    if (value !== undefined) out[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/**
 * A response body decompressed as its content-encoding says (gzip, deflate, br); any other as it
 * came. An error or destroy of either end reaches the other.
 */
export function decodedBody(body: Readable, encoding: string | undefined): Readable {
  const zlib = () => lazyBuiltin('node:zlib');
  const through = (decoder: NodeJS.ReadWriteStream & Readable) =>
    pipeline(body, decoder, () => {
      // The error reaches the reader of the decoded stream; nothing more to do here.
    });
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return through(zlib().createGunzip());
    case 'deflate':
      return through(zlib().createInflate());
    case 'br':
      return through(zlib().createBrotliDecompress());
    default:
      return body;
  }
}
