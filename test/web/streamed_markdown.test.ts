import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/web/html_markdown.js';
import { streamedMarkdown } from '../../src/web/streamed_markdown.js';

const page = (body: string, head = '<title>T</title>') =>
  `<!doctype html><html><head>${head}<style>p{}</style></head><body>${body}</body></html>`;
const md = (html: string) => streamedMarkdown(html, 'https://example.com/docs/page').markdown.trim();

describe('HTML to Markdown in one pass', () => {
  it('reads only the articles when the page marks them, else main, else the body without its furniture', () => {
    const chrome =
      '<header>Site</header><nav><a href="/">Home</a></nav><aside>Ads</aside><footer>Legal</footer>';
    const article = streamedMarkdown(
      page(
        `${chrome}<main><p>Main intro</p><article><header><h1>Headline</h1></header><p>Story.</p></article></main>`,
      ),
      'https://x/',
    );
    expect(article).toMatchObject({ title: 'T', article: true });
    expect(article.markdown.trim()).toBe('# Headline\n\n\n\nStory.');
    expect(md(page(`${chrome}<main><h2>Guide</h2><p>Text</p><aside>Related</aside></main>`))).toBe(
      '## Guide\n\n\n\nText',
    );
    const body = streamedMarkdown(page(`${chrome}<div><p>Plain page</p></div>`), 'https://x/');
    expect(body).toMatchObject({ article: false });
    expect(body.markdown.trim()).toBe('Plain page');
  });

  it('keeps headings, emphasis, links made absolute, images, code, quotes and rules', () => {
    const text = md(
      page(
        '<main><h3>Use  it</h3><p>Run <code>make</code> with <strong>care </strong>and <em>a</em> ' +
          '<a href="../api#x">link</a>, <a href="#top">an anchor</a>, <a href="javascript:void 0">js</a>.</p>' +
          '<p><img src="/i.png" alt="diagram"><img src="data:image/png;base64,AAAA" alt="inline"></p>' +
          '<pre><code>if (a &lt; b) {\n  go();\n}</code></pre><blockquote><p>Said</p><p>twice</p></blockquote><hr>' +
          '<p>line<br>break &amp; entity&nbsp;here</p></main>',
      ),
    );
    expect(text).toContain('### Use it');
    expect(text).toContain(
      'Run `make` with **care** and *a* [link](https://example.com/api#x), an anchor, js.',
    );
    expect(text).toContain('![diagram](https://example.com/i.png)');
    expect(text).not.toContain('data:image');
    expect(text).toContain('```\nif (a < b) {\n  go();\n}\n```');
    expect(text).toContain('> Said\n>\n> twice');
    expect(text).toContain('---');
    expect(text).toContain('line\nbreak & entity here');
  });

  it('numbers ordered lists, indents nested ones and writes tables as GFM', () => {
    const text = md(
      page(
        '<main><ol><li>one</li><li>two<ul><li>inner</li></ul></li></ol>' +
          '<table><thead><tr><th>a</th><th>b|c</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td></tr></tbody></table></main>',
      ),
    );
    expect(text).toContain('1. one\n\n2. two\n\n   - inner');
    expect(text).toContain('| a | b\\|c |\n| --- | --- |\n| 1 | 2 |\n| 3 |  |');
  });

  it('drops scripts, forms and what a reader cannot see, and survives broken markup', () => {
    const text = md(
      page(
        '<main><script>var secret = 1</script><form><input><button>Go</button></form><noscript>x</noscript>' +
          '<p>Kept <b>bold<i>both</b> after</i><div>unclosed<p>para</main>',
      ),
    );
    expect(text).not.toMatch(/secret|Go\b|noscript/);
    expect(text).toContain('Kept');
    expect(text).toContain('unclosed');
    expect(text).toContain('para');
  });

  it('is used for pages that mark their content and for pages too large for a document', async () => {
    const large = page(`<div>${'<p>Paragraph of a long page.</p>'.repeat(20_000)}</div>`);
    const converted = await htmlToMarkdown(large, 'https://x/');
    expect(converted.article).toBe(false);
    expect(converted.markdown.split('\n\n')).toHaveLength(20_000);
    const marked = await htmlToMarkdown(page('<nav>Menu</nav><article><p>Body</p></article>'), 'https://x/');
    expect(marked).toMatchObject({ markdown: 'Body', article: true, title: 'T' });
  });
});
