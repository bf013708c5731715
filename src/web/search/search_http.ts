import { flatHeaders } from '../../util/http_content.js';
import { readCapped } from '../pinned_request.js';
import { WebError } from '../web_error.js';

const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
export const SEARCH_TIMEOUT_MS = 20_000;

/**
 * One request to a search service the user configured (its address comes from settings, not from
 * the model, so it is not held to the fetch policy), bounded in time and size. A status of 400 or
 * more is an error with the service's own words.
 */
export async function searchRequest(
  service: string,
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  signal: AbortSignal,
): Promise<string> {
  const { request } = await import('undici');
  const deadline = AbortSignal.any([signal, AbortSignal.timeout(SEARCH_TIMEOUT_MS)]);
  try {
    const response = await request(url, {
      method: init.method ?? 'GET',
      headers: {
        'user-agent': 'lathe web_search',
        accept: 'application/json, text/html;q=0.9',
        ...init.headers,
      },
      body: init.body,
      signal: deadline,
      headersTimeout: SEARCH_TIMEOUT_MS,
      bodyTimeout: SEARCH_TIMEOUT_MS,
    });
    const headers = flatHeaders(response.headers);
    const text = (
      await readCapped(response.body, headers['content-encoding'], MAX_ANSWER_BYTES, url)
    ).toString('utf8');
    if (response.statusCode >= 400) {
      const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
      throw new WebError(
        `${service} answered HTTP ${response.statusCode}${excerpt ? `: ${excerpt}` : ''}`,
        'status',
      );
    }
    return text;
  } catch (error) {
    if (error instanceof WebError) throw error;
    if (deadline.aborted && !signal.aborted)
      throw new WebError(`${service} did not answer within ${SEARCH_TIMEOUT_MS / 1000} s`, 'timeout');
    const code = (error as { code?: string }).code;
    throw new WebError(`${service} could not be reached (${code ?? (error as Error).message})`, 'network');
  }
}

/** One request whose answer is JSON; a body that is not JSON is an error naming the service. */
export async function requestJson(
  service: string,
  url: string,
  init: Parameters<typeof searchRequest>[2],
  signal: AbortSignal,
): Promise<unknown> {
  const text = await searchRequest(service, url, init, signal);
  try {
    return JSON.parse(text);
  } catch {
    throw new WebError(`${service} answered with something that is not JSON`, 'content');
  }
}
