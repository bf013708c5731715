import { WebError } from './web_error.js';

/** The charset a Content-Type header names (`text/html; charset=Shift_JIS`). */
export function headerCharset(contentType: string | undefined): string | undefined {
  return /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
}

/** The charset an HTML document declares in its first bytes (`<meta charset>` or `http-equiv`). */
function metaCharset(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 4096).toString('latin1');
  return (
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1] ??
    /<\?xml[^>]+encoding\s*=\s*["']([\w.:-]+)/i.exec(head)?.[1]
  );
}

/**
 * The body as text: a byte-order mark first, then the header's charset, then the document's own
 * declaration, else UTF-8. A charset the runtime does not know is an error naming it.
 */
export function decodeBody(bytes: Buffer, contentType: string | undefined, html: boolean): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const label = headerCharset(contentType) ?? (html ? metaCharset(bytes) : undefined) ?? 'utf-8';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label.toLowerCase());
  } catch {
    throw new WebError(`the page declares the charset "${label}", which lathe cannot decode`, 'content');
  }
  return decoder.decode(bytes);
}
