/**
 * HTML to Markdown. A page that marks its content (`<article>`, `<main>`) or is too large for a
 * document to be built in good time is converted in one pass over the parser's events;
 * otherwise Readability finds the main content on a linkedom document and turndown converts it
 * with GFM tables (the whole body when Readability finds no article). The packages are loaded
 * on the first such page, never at start-up.
 */
export interface MarkdownPage {
  title?: string;
  markdown: string;
  /** Whether Readability found the main content (else the whole body was converted). */
  article: boolean;
}

type Converters = {
  parseHTML: typeof import('linkedom').parseHTML;
  Readability: typeof import('@mozilla/readability').Readability;
  turndown: import('turndown');
};

let converters: Promise<Converters> | undefined;

async function load(): Promise<Converters> {
  const [{ parseHTML }, { Readability }, { default: TurndownService }, gfm] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
    // @ts-expect-error: the plugin ships no types
    import('@joplin/turndown-plugin-gfm'),
  ]);
  const turndown = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
  });
  turndown.use((gfm.default ?? gfm).gfm);
  // What a reader cannot see costs tokens for nothing.
  turndown.remove(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'form', 'button']);
  return { parseHTML, Readability, turndown };
}

/** Collapses the blank lines turndown leaves between blocks. */
function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Above this, building a document and scoring its nodes costs seconds. */
const LARGE_PAGE_CHARS = 512 * 1024;

export async function htmlToMarkdown(html: string, url: string): Promise<MarkdownPage> {
  if (html.length > LARGE_PAGE_CHARS || /<(article|main)[\s>]/i.test(html)) {
    const { streamedMarkdown } = await import('./streamed_markdown.js');
    const page = streamedMarkdown(html, url);
    if (page.markdown.trim() !== '') return { ...page, markdown: tidy(page.markdown) };
  }
  converters ??= load();
  const { parseHTML, Readability, turndown } = await converters;
  const { document } = parseHTML(html);
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  let article: ReturnType<InstanceType<typeof Readability>['parse']> = null;
  try {
    Object.defineProperty(document, 'baseURI', { value: url });
    article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  } catch {
    article = null;
  }
  if (article?.content && (article.textContent ?? '').trim().length > 0) {
    const markdown = tidy(turndown.turndown(article.content));
    const heading = article.title?.trim();
    return {
      title: heading || title,
      markdown: heading && !markdown.startsWith('#') ? `# ${heading}\n\n${markdown}` : markdown,
      article: true,
    };
  }
  // Readability changed the document it read: the whole body comes from a fresh parse.
  const fresh = parseHTML(html).document;
  const body = fresh.querySelector('body') ?? fresh.documentElement;
  return {
    title,
    markdown: tidy(turndown.turndown((body?.innerHTML as string | undefined) ?? html)),
    article: false,
  };
}
