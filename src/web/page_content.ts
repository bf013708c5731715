import { decodeBody } from './charset.js';
import { htmlToMarkdown } from './html_markdown.js';
import type { RawResponse } from './pinned_request.js';
import { describeBytes, WebError } from './web_error.js';

/** What a fetched body is, ready for the model: text (Markdown, JSON, plain), a PDF or image to render, or refused. */
export type PageContent =
  | { kind: 'text'; format: 'markdown' | 'json' | 'text'; text: string; title?: string }
  | { kind: 'pdf'; bytes: Buffer }
  | { kind: 'image'; bytes: Buffer; mediaType: string };

const TEXT_TYPES =
  /^(text\/|application\/(xml|xhtml\+xml|javascript|ecmascript|x-sh|x-yaml|yaml|toml|rss\+xml|atom\+xml|x-www-form-urlencoded)|image\/svg\+xml)/;

/** The type the bytes show when the header says nothing useful. */
function sniff(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 16);
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head[0] === 0x89 && head.subarray(1, 4).toString('latin1') === 'PNG') return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  const start = bytes.subarray(0, 1024).toString('latin1').trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'text/html';
  if (!bytes.subarray(0, 8192).includes(0)) return 'text/plain';
  return undefined;
}

function mediaTypeOf(response: RawResponse): string {
  const declared = (response.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (declared && declared !== 'application/octet-stream' && declared !== 'binary/octet-stream')
    return declared;
  return sniff(response.body) ?? (declared || 'application/octet-stream');
}

/** Turns a 2xx body into content by its type; binary that is neither PDF nor image is refused with its type and size. */
export async function pageContent(response: RawResponse): Promise<PageContent> {
  const type = mediaTypeOf(response);
  const contentType = response.headers['content-type'];
  const { body } = response;
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    const page = await htmlToMarkdown(decodeBody(body, contentType, true), response.url);
    return { kind: 'text', format: 'markdown', text: page.markdown, title: page.title };
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = decodeBody(body, contentType, false);
    try {
      return { kind: 'text', format: 'json', text: JSON.stringify(JSON.parse(text), null, 2) };
    } catch {
      return { kind: 'text', format: 'text', text };
    }
  }
  if (type === 'text/markdown' || TEXT_TYPES.test(type))
    return {
      kind: 'text',
      format: type === 'text/markdown' ? 'markdown' : 'text',
      text: decodeBody(body, contentType, false),
    };
  if (type === 'application/pdf') return { kind: 'pdf', bytes: body };
  if (/^image\/(png|jpeg|gif|webp|avif|tiff)$/.test(type))
    return { kind: 'image', bytes: body, mediaType: type };
  throw new WebError(
    `${response.url}: ${type} content (${describeBytes(body.length)}) is binary and was not read; only pages, text, JSON, PDF and images are`,
    'content',
  );
}
