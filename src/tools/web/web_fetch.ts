import { buildTool } from '../../tool/build_tool.js';
import { parseUrl } from '../../web/parse_url.js';
import { WebError } from '../../web/web_error.js';
import { inputSchema } from './web_fetch_input.js';

function hostOf(url: string): string {
  try {
    return new URL(url.trim()).hostname;
  } catch {
    return url;
  }
}

export const webFetch = buildTool({
  name: 'web_fetch',
  inputSchema,
  description:
    'Fetch a web page (http or https) and read it as Markdown: the main content of HTML pages, JSON pretty-printed, ' +
    'PDF text, images as images. Long pages come in parts: the result says the offset of the next one. With ' +
    '`prompt`, a small model reads the page and answers the question instead (cheaper for one fact from a long page). ' +
    'Private and local addresses are refused unless settings allow them; a redirect to another host is reported, ' +
    'not followed. Pages are cached for up to 15 minutes.',
  liteDescription:
    'Fetch a URL and return it as Markdown (paged: offset, max_chars); `prompt` asks a small model about it.',
  availability: { profiles: ['standard'], feature: 'web' },
  kind: 'fetch',
  userFacingName: () => 'Fetch',
  detail: (input) => input.url,
  maxResultChars: 110_000,
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input) => ({ kind: 'web', subjects: [hostOf(input.url)] }),
  validateInput(input) {
    try {
      const url = parseUrl(input.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:')
        return `${url.protocol.replace(/:$/, '')}: URLs are not fetched (only http and https)`;
    } catch (error) {
      return (error as Error).message;
    }
    return undefined;
  },
  async call(input, ctx) {
    try {
      const { fetchPage } = await import('./web_fetch_page.js');
      return await fetchPage(input, ctx);
    } catch (error) {
      if (error instanceof WebError) return { isError: true, text: error.message };
      if (ctx.signal.aborted) return { isError: true, text: 'The fetch was interrupted.' };
      return { isError: true, text: `${input.url}: ${(error as Error).message.split('\n')[0]}` };
    }
  },
});
