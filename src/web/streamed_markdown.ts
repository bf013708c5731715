import { Parser } from 'htmlparser2';

/**
 * HTML to Markdown in one pass over the parser's events, with no document built: the content of
 * a page's `<article>` elements (else its `<main>`, else its body without navigation, header,
 * footer and sidebars). Each element collects the Markdown of what it holds and hands it, shaped
 * by its tag, to the element around it.
 */
export interface StreamedPage {
  title?: string;
  markdown: string;
  /** Whether the page marked its main content (`<article>` or `<main>`). */
  article: boolean;
}

/** Never read: what a reader cannot see, and the page's furniture. */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'svg',
  'canvas',
  'form',
  'button',
  'select',
  'textarea',
  'nav',
  'aside',
]);
/**
 * A site's header and footer: dropped, but inside marked content, where they hold an article's
 * headline and byline.
 */
const CHROME = new Set(['header', 'footer']);
const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'figure',
  'figcaption',
  'dl',
  'dt',
  'dd',
  'address',
  'details',
  'summary',
  'caption',
  'center',
  'hgroup',
  'body',
]);
const EMPHASIS: Record<string, string> = { strong: '**', b: '**', em: '*', i: '*', del: '~~', s: '~~' };

interface Frame {
  tag: string;
  attrs: Record<string, string>;
  out: string;
  /**
   * Whether `out` is empty or ends in white space, kept as text is added: looking at the end of
   * a long string built by appending would copy it each time.
   */
  blankEnd: boolean;
  /** A list's items so far (numbering), a row's cells, a table's rows. */
  count?: number;
  cells?: string[];
  rows?: string[][];
}

function append(frame: Frame, text: string): void {
  if (text === '') return;
  frame.out += text;
  frame.blankEnd = /\s$/.test(text);
}

type Mode = 'article' | 'main' | 'body';

export function streamedMarkdown(html: string, url: string): StreamedPage {
  const mode: Mode = /<article[\s>]/i.test(html) ? 'article' : /<main[\s>]/i.test(html) ? 'main' : 'body';
  const stack: Frame[] = [{ tag: '#root', attrs: {}, out: '', blankEnd: true }];
  let dropped = 0;
  let inContent = 0;
  let inPre = 0;
  let title: string | undefined;
  let inTitle = false;
  // The page's title is its first <title>; an SVG's own titles come later.
  let titleRead = false;

  const top = () => stack[stack.length - 1];
  const reading = () => dropped === 0 && (mode === 'body' || inContent > 0);
  const isDropped = (tag: string) =>
    DROPPED.has(tag) || (CHROME.has(tag) && (mode === 'body' || inContent === 0));

  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        if (tag === 'title' && !titleRead) inTitle = true;
        if (tag === mode) inContent++;
        if (isDropped(tag) || tag === 'head') dropped++;
        if (tag === 'pre') inPre++;
        const frame: Frame = { tag, attrs, out: '', blankEnd: true };
        if (tag === 'tr') frame.cells = [];
        if (tag === 'table') frame.rows = [];
        stack.push(frame);
      },
      ontext(text) {
        if (inTitle) title = (title ?? '') + text;
        if (!reading()) return;
        const frame = top();
        if (inPre > 0) return append(frame, text);
        const collapsed = text.replace(/\s+/g, ' ');
        append(frame, collapsed.startsWith(' ') && frame.blankEnd ? collapsed.slice(1) : collapsed);
      },
      onclosetag(tag) {
        const frame = stack.pop();
        if (!frame || stack.length === 0) return;
        // Outside the content an element holds only what content inside it gave: passed on.
        if (reading() || (dropped === 0 && frame.out !== '')) append(top(), render(frame, stack, url));
        if (tag === 'title' && inTitle) {
          inTitle = false;
          titleRead = true;
        }
        if (tag === 'pre') inPre--;
        if (isDropped(tag) || tag === 'head') dropped--;
        if (tag === mode) inContent--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, recognizeSelfClosing: true },
  );
  parser.end(html);
  return { title: title?.trim() || undefined, markdown: stack[0].out, article: mode !== 'body' };
}

const block = (text: string) => (text.trim() === '' ? '' : `\n\n${text.trim()}\n\n`);
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** What an element adds to the one around it, given what it collected. */
function render(frame: Frame, stack: Frame[], base: string): string {
  const { tag, attrs, out } = frame;
  const heading = /^h([1-6])$/.exec(tag);
  if (heading) return out.trim() === '' ? '' : `\n\n${'#'.repeat(Number(heading[1]))} ${oneLine(out)}\n\n`;
  if (BLOCKS.has(tag)) return block(out);
  if (Object.hasOwn(EMPHASIS, tag)) return around(out, (inner) => `${EMPHASIS[tag]}${inner}${EMPHASIS[tag]}`);
  switch (tag) {
    case 'br':
      return '\n';
    case 'hr':
      return '\n\n---\n\n';
    case 'a':
      return link(out, attrs.href, base);
    case 'img': {
      const src = attrs.src && !attrs.src.startsWith('data:') ? resolve(attrs.src, base) : undefined;
      return src ? `![${oneLine(attrs.alt ?? '')}](${src})` : '';
    }
    case 'code':
      return stack.some((f) => f.tag === 'pre') ? out : inlineCode(out);
    case 'pre':
      return `\n\n\`\`\`\n${out.replace(/^\n/, '').trimEnd()}\n\`\`\`\n\n`;
    case 'blockquote':
      return block(
        out
          .trim()
          .replace(/\n{3,}/g, '\n\n')
          .split('\n')
          .map((line) => `> ${line}`.trimEnd())
          .join('\n'),
      );
    case 'ul':
    case 'ol':
      return block(out);
    case 'li':
      return listItem(out, nearest(stack, ['ul', 'ol']));
    case 'td':
    case 'th':
      nearest(stack, ['tr'])?.cells?.push(oneLine(out).replace(/\|/g, '\\|'));
      return '';
    case 'tr':
      if (frame.cells && frame.cells.length > 0) nearest(stack, ['table'])?.rows?.push(frame.cells);
      return '';
    case 'table':
      return table(frame.rows ?? []);
    default:
      return out;
  }
}

function nearest(stack: Frame[], tags: string[]): Frame | undefined {
  for (let i = stack.length - 1; i >= 0; i--) if (tags.includes(stack[i].tag)) return stack[i];
  return undefined;
}

/** Inline text shaped around its trimmed inside, the spaces at its ends kept outside. */
function around(text: string, shape: (inner: string) => string): string {
  const inner = text.trim();
  if (inner === '') return text;
  return `${text.startsWith(' ') ? ' ' : ''}${shape(inner)}${text.endsWith(' ') ? ' ' : ''}`;
}

function inlineCode(text: string): string {
  if (text.trim() === '') return text;
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}

function resolve(href: string, base: string): string | undefined {
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

function link(text: string, href: string | undefined, base: string): string {
  if (text.trim() === '') return '';
  if (!href || href.startsWith('#') || /^javascript:/i.test(href)) return text;
  const target = resolve(href, base);
  return target ? around(text, (inner) => `[${inner}](${target})`) : text;
}

function listItem(text: string, list: Frame | undefined): string {
  if (list) list.count = (list.count ?? 0) + 1;
  const marker = list?.tag === 'ol' ? `${list.count}.` : '-';
  const indent = ' '.repeat(marker.length + 1);
  const lines = text
    .trim()
    .replace(/\n{3,}/g, '\n\n')
    .split('\n');
  return `\n${marker} ${lines.map((line, i) => (i === 0 || line === '' ? line : indent + line)).join('\n')}\n`;
}

function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const width = Math.max(...rows.map((row) => row.length));
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? '').join(' | ')} |`;
  const [head, ...body] = rows;
  return `\n\n${[line(head), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n')}\n\n`;
}
