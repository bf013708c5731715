import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { SearchResult } from '../web/search/types.js';

/** Characters of the provider's answer kept as a snippet when it cites none of its sources. */
const ANSWER_SNIPPET_CHARS = 600;

/** Gemini's grounding links go through Google's redirect; the page's site is in the title then. */
const GROUNDING_REDIRECT = /^https:\/\/vertexaisearch\.cloud\.google\.com\/grounding-api-redirect\//;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A link as the provider gave it, less the tracking tag OpenAI adds to the links its search cites. */
function cleanUrl(url: string): string {
  if (!url.includes('utm_source=openai')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.searchParams.get('utm_source') === 'openai') parsed.searchParams.delete('utm_source');
    return parsed.href;
  } catch {
    return url;
  }
}

/** A line of the answer as a snippet: Markdown links down to their text, spaces squeezed. */
function plainLine(line: string): string {
  return line
    .replace(/\s*\(\[[^\]]*\]\([^)]*\)\)/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The line of `text` that holds the character at `index`. */
function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end === -1 ? undefined : end);
}

/**
 * Reads a streamed answer of the provider's own search into search results. Each provider says
 * it differently: Anthropic sends its results (with their age) and citations quoting the pages;
 * OpenAI cites pages by links in its answer (url_citation annotations) and lists the others it
 * looked at; Gemini lists the pages it grounded on and which of its sentences each supports.
 * A result's snippet is what of the answer cites it.
 */
export class NativeSearchResults {
  private readonly found = new Map<string, SearchResult>();
  private readonly texts = new Map<string, string>();
  private readonly errors: string[] = [];

  read(part: LanguageModelV3StreamPart): void {
    switch (part.type) {
      case 'text-delta':
        this.texts.set(part.id, (this.texts.get(part.id) ?? '') + part.delta);
        return;
      case 'source':
        if (part.sourceType === 'url')
          this.readSource(part.url, part.title, part.providerMetadata?.anthropic);
        return;
      case 'text-end':
        this.readAnnotations(this.texts.get(part.id) ?? '', part.providerMetadata?.openai?.annotations);
        return;
      case 'tool-result':
        this.readToolResult(part.result, part.isError === true);
        return;
      case 'finish':
        this.readGrounding(part.providerMetadata?.google?.groundingMetadata);
        return;
      case 'error':
        throw part.error;
    }
  }

  /** The results in the order the provider gave them; throws when its search failed and found nothing. */
  results(): SearchResult[] {
    const results = [...this.found.values()];
    if (results.length === 0 && this.errors.length > 0)
      throw new Error(`the provider's search failed: ${this.errors.join('; ')}`);
    const answer = [...this.texts.values()].join('\n').trim();
    if (results.length > 0 && answer && results.every((r) => !r.snippet))
      results[0].snippet = plainLine(answer).slice(0, ANSWER_SNIPPET_CHARS);
    return results;
  }

  private result(rawUrl: string, title?: string): SearchResult {
    const url = cleanUrl(rawUrl);
    let result = this.found.get(url);
    if (!result) {
      result = { title: title || url, url, snippet: '' };
      // A redirect's own host says nothing of the page; Gemini titles it with the page's site.
      if (GROUNDING_REDIRECT.test(url) && title && /^[\w.-]+\.[a-z]{2,}$/i.test(title)) result.site = title;
      this.found.set(url, result);
    } else if (title && result.title === url) result.title = title;
    return result;
  }

  private readSource(url: string, title: string | undefined, anthropic: Json | undefined): void {
    const result = this.result(url, title);
    const pageAge = stringOf(anthropic?.pageAge);
    if (pageAge) result.date = pageAge;
    const cited = stringOf(anthropic?.citedText);
    if (cited && !result.snippet) result.snippet = plainLine(cited);
  }

  private readAnnotations(text: string, annotations: unknown): void {
    for (const annotation of arrayOf(annotations)) {
      if (!isObject(annotation) || annotation.type !== 'url_citation') continue;
      const url = stringOf(annotation.url);
      if (!url) continue;
      const result = this.result(url, stringOf(annotation.title));
      const start = typeof annotation.start_index === 'number' ? annotation.start_index : -1;
      if (!result.snippet && start >= 0 && start <= text.length)
        result.snippet = plainLine(lineAt(text, start));
    }
  }

  private readToolResult(result: unknown, isError: boolean): void {
    if (isError) {
      const why = isObject(result) ? (stringOf(result.errorCode) ?? stringOf(result.status)) : undefined;
      this.errors.push(why ?? 'unknown error');
      return;
    }
    // OpenAI lists the pages it looked at without titles; cited ones come with theirs.
    if (isObject(result))
      for (const source of arrayOf(result.sources))
        if (isObject(source) && source.type === 'url' && typeof source.url === 'string')
          this.result(source.url);
  }

  private readGrounding(metadata: unknown): void {
    if (!isObject(metadata)) return;
    const chunks = arrayOf(metadata.groundingChunks).map((chunk) =>
      isObject(chunk) && isObject(chunk.web) && typeof chunk.web.uri === 'string'
        ? this.result(chunk.web.uri, stringOf(chunk.web.title))
        : undefined,
    );
    for (const support of arrayOf(metadata.groundingSupports)) {
      if (!isObject(support)) continue;
      const text = stringOf(isObject(support.segment) ? support.segment.text : undefined);
      if (!text) continue;
      for (const index of arrayOf(support.groundingChunkIndices)) {
        const result = typeof index === 'number' ? chunks[index] : undefined;
        if (result && !result.snippet) result.snippet = plainLine(text);
      }
    }
  }
}
