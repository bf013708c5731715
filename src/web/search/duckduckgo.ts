import { WebError } from '../web_error.js';
import type { SearchResult } from './types.js';

/** DuckDuckGo's result links go through its redirector (`//duckduckgo.com/l/?uddg=<url>`): the target. */
function targetOf(href: string): string | undefined {
  try {
    const url = new URL(href, 'https://duckduckgo.com');
    const target = url.pathname === '/l/' ? url.searchParams.get('uddg') : url.href;
    return target && /^https?:\/\//.test(target) ? target : undefined;
  } catch {
    return undefined;
  }
}

/** The results of DuckDuckGo's HTML page (`html.duckduckgo.com/html/`); its ads are left out. */
export async function duckDuckGoResults(html: string): Promise<SearchResult[]> {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(html);
  if (document.querySelector('.anomaly-modal__title, #challenge-form'))
    throw new WebError(
      'duckduckgo asked for a challenge (bot protection); try again later or configure another backend',
      'status',
    );
  const results: SearchResult[] = [];
  for (const block of document.querySelectorAll('.result')) {
    if (block.classList.contains('result--ad')) continue;
    const link = block.querySelector('a.result__a');
    const url = targetOf(link?.getAttribute('href') ?? '');
    if (!link || !url) continue;
    const snippet = block.querySelector('.result__snippet')?.textContent ?? '';
    results.push({
      title: (link.textContent ?? '').replace(/\s+/g, ' ').trim() || url,
      url,
      snippet: snippet.replace(/\s+/g, ' ').trim(),
    });
  }
  return results;
}
