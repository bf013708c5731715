// web_fetch's work, loaded at its first call: the fetch, the page's content and its parsers.
import type { ToolContext, ToolOutput } from '../../tool/types.js';
import { botProtection } from '../../web/bot_protection.js';
import { fetchUrl } from '../../web/fetch_url.js';
import { type PageContent, pageContent } from '../../web/page_content.js';
import { pageOf } from '../../web/paging.js';
import { parseUrl } from '../../web/parse_url.js';
import type { RawResponse } from '../../web/pinned_request.js';
import { WebError } from '../../web/web_error.js';
import { renderImage } from '../files/render/image.js';
import { renderPdf } from '../files/render/pdf.js';
import { webAccessOf } from './web_access.js';
import { DEFAULT_MAX_CHARS, type WebFetchInput } from './web_fetch_input.js';

/** How much of a page the small model reads to answer a `prompt`. */
const PROMPT_PAGE_CHARS = 100_000;

const PROMPT_SYSTEM =
  'You answer a question about one web page, from its content only. Be concise and exact; quote the page ' +
  'where the wording matters (code, commands, numbers). Say so plainly when the page does not answer it.';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  410: 'Gone',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The page as text (Markdown, JSON, text or a PDF's pages), made once per fetched response. */
async function textOf(
  response: RawResponse,
  content: PageContent,
  progress?: (message: string) => void,
): Promise<{ text: string; label: string; title?: string }> {
  if (content.kind === 'text') return { text: content.text, label: content.format, title: content.title };
  if (content.kind === 'pdf') {
    progress?.('reading the PDF…');
    const pdf = await renderPdf(content.bytes);
    if (!pdf.ok) throw new WebError(`${response.url}: ${pdf.error}`, 'content');
    return { text: pdf.text, label: `PDF, ${pdf.pageCount} page${pdf.pageCount === 1 ? '' : 's'}` };
  }
  throw new Error('not text');
}

function failure(response: RawResponse): string {
  const shield = botProtection(response);
  if (shield)
    return `${response.url}: blocked by bot protection (${shield} challenge, HTTP ${response.status}); the page cannot be read without a browser`;
  const excerpt = response.body
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  const status = `HTTP ${response.status}${STATUS_TEXT[response.status] ? ` ${STATUS_TEXT[response.status]}` : ''}`;
  return `${response.url}: ${status}${excerpt ? `: ${excerpt}` : ''}`;
}

/** A small model's answer to the prompt about the page (its first `PROMPT_PAGE_CHARS`). */
async function answerAbout(
  text: string,
  prompt: string,
  page: { heading: string; url: string },
  ctx: ToolContext,
  models: NonNullable<ToolContext['models']>,
): Promise<ToolOutput> {
  const source = text.slice(0, PROMPT_PAGE_CHARS);
  ctx.progress?.('asking a model about the page…');
  const answer = await models.askSmall(
    { system: PROMPT_SYSTEM, prompt: `Page ${page.url}:\n\n${source}\n\n---\nQuestion: ${prompt}` },
    ctx.signal,
  );
  const partly = text.length > source.length ? ` (from its first ${source.length} characters)` : '';
  return {
    text:
      `${page.heading}\nAnswer by ${answer.model}${partly}:\n\n${answer.text.trim()}\n\n` +
      `The page's own text (${text.length} characters) stays available: call web_fetch without prompt, with offset to page through it.`,
    data: { url: page.url, answeredBy: answer.model, totalChars: text.length },
  };
}

/** web_fetch's work: the page fetched, made text, and paged or answered about. */
export async function fetchPage(input: WebFetchInput, ctx: ToolContext): Promise<ToolOutput> {
  const web = webAccessOf(ctx);
  const { settings, cache } = web;
  ctx.progress?.(`fetching ${parseUrl(input.url).host}…`);
  const outcome = await fetchUrl(input.url, {
    policy: { allow: settings.allow, resolve: web.resolve },
    connectTimeoutMs: settings.connectTimeoutMs,
    totalTimeoutMs: settings.totalTimeoutMs,
    maxBytes: settings.maxBytes,
    cache,
    signal: ctx.signal,
    // A redirect to another host is followed only where rules already allow that host.
    mayFollow: (to) =>
      ctx.permissions.decide({
        tool: 'web_fetch',
        readOnly: true,
        subject: { kind: 'web', subjects: [to.hostname] },
        strictPlanRefused: false,
      }).behavior === 'allow',
  });
  if (outcome.kind === 'redirect')
    return {
      text: `${outcome.from} redirects (HTTP ${outcome.status}) to another host: ${outcome.to}\nCall web_fetch with that URL to read it.`,
      data: { redirect: outcome.to },
    };
  const { response } = outcome;
  if (response.status >= 400 || botProtection(response)) return { isError: true, text: failure(response) };

  let content = cache.derived.get(response) as PageContent | undefined;
  if (!content) {
    content = await pageContent(response);
    cache.derived.set(response, content);
  }
  const cached = outcome.cache ? ` (cached${outcome.cache === 'revalidated' ? ', revalidated' : ''})` : '';
  if (content.kind === 'image') {
    const image = await renderImage(
      content.bytes,
      new URL(response.url).pathname.split('/').pop() || 'image',
    );
    if (!image.ok) return { isError: true, text: `${response.url}: ${image.error}` };
    return {
      text: `${response.url}${cached}: ${image.note}`,
      images: [{ mediaType: image.mediaType, data: image.data }],
      data: { url: response.url, mediaType: image.mediaType },
    };
  }
  const page = await textOf(response, content, ctx.progress);
  const heading = `${response.url}${page.title ? ` — ${page.title}` : ''} (${page.label}${cached})`;

  if (input.prompt && ctx.models)
    return answerAbout(page.text, input.prompt, { heading, url: response.url }, ctx, ctx.models);

  const part = pageOf(page.text, input.offset ?? 0, input.max_chars ?? DEFAULT_MAX_CHARS);
  const whole = part.offset === 0 && part.nextOffset === undefined;
  const range = whole ? `${part.total} characters` : `characters ${part.offset}–${part.end} of ${part.total}`;
  const lines = [`${heading} — ${range}`];
  if (input.prompt && !ctx.models)
    lines.push('(no model is at hand to answer the prompt here; the page follows)');
  lines.push('', part.text || '(the page has no text)');
  if (part.nextOffset !== undefined)
    lines.push(
      '',
      `[More: ${part.total - part.nextOffset} characters left; call web_fetch with offset=${part.nextOffset} for the next part.]`,
    );
  return {
    text: lines.join('\n'),
    data: {
      url: response.url,
      offset: part.offset,
      nextOffset: part.nextOffset,
      totalChars: part.total,
      cache: outcome.cache,
    },
  };
}
