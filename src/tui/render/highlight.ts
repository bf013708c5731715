import type { Line, Span, Style } from './style.js';

/**
 * A small syntax highlighter for code blocks: keywords, strings, numbers, comments, constants,
 * types and calls, for the languages models write most. A line-by-line scanner with a little
 * state (block comments, triple-quoted and template strings) — no grammar, no dependency.
 */

interface LanguageSpec {
  keywords: Set<string>;
  lineComment: string[];
  blockComment?: [string, string];
  quotes: string[];
  /** Python's ''' and """ strings, which may span lines. */
  tripleQuotes?: boolean;
  /** Keys before a colon are highlighted (JSON, YAML). */
  keys?: boolean;
  /** Shell: $variables and -flags. */
  shell?: boolean;
}

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

const JS =
  words(`abstract as async await break case catch class const continue debugger declare default delete do
  else enum export extends finally for from function get if implements import in instanceof interface keyof let
  namespace new of private protected public readonly return satisfies set static super switch this throw try type
  typeof var void while with yield`);
const PYTHON =
  words(`and as assert async await break class continue def del elif else except finally for from global
  if import in is lambda match case nonlocal not or pass raise return try while with yield self`);
const SHELL =
  words(`if then else elif fi for in do done while until case esac function return local export source
  echo cd exit set unset readonly shift trap eval exec`);
const GO =
  words(`break case chan const continue default defer else fallthrough for func go goto if import interface
  map package range return select struct switch type var`);
const RUST =
  words(`as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod
  move mut pub ref return self Self static struct super trait type unsafe use where while`);
const C_FAMILY =
  words(`auto break case catch char class const continue default delete do double else enum extends
  extern final finally float for friend goto if implements import inline int interface long namespace new package
  private protected public return short signed sizeof static struct super switch template this throw throws try
  typedef typename union unsigned using virtual void volatile while bool fun val var override when object`);
const RUBY =
  words(`alias and begin break case class def defined do else elsif end ensure for if in module next not or
  redo rescue retry return self super then undef unless until when while yield require`);
const SQL =
  words(`select from where and or not insert into values update set delete create table drop alter index
  join left right inner outer on group by order having limit offset as distinct union all primary key references
  SELECT FROM WHERE AND OR NOT INSERT INTO VALUES UPDATE SET DELETE CREATE TABLE DROP ALTER INDEX JOIN LEFT RIGHT
  INNER OUTER ON GROUP BY ORDER HAVING LIMIT OFFSET AS DISTINCT UNION ALL PRIMARY KEY REFERENCES`);
const CONSTANTS = words('true false null undefined None True False nil NaN Infinity');

const C_LIKE = { lineComment: ['//'], blockComment: ['/*', '*/'] as [string, string] };

const SPECS: Record<string, LanguageSpec> = {
  js: { keywords: JS, ...C_LIKE, quotes: ['"', "'", '`'] },
  python: { keywords: PYTHON, lineComment: ['#'], quotes: ['"', "'"], tripleQuotes: true },
  shell: { keywords: SHELL, lineComment: ['#'], quotes: ['"', "'"], shell: true },
  go: { keywords: GO, ...C_LIKE, quotes: ['"', '`', "'"] },
  rust: { keywords: RUST, ...C_LIKE, quotes: ['"'] },
  c: { keywords: C_FAMILY, ...C_LIKE, quotes: ['"', "'"] },
  ruby: { keywords: RUBY, lineComment: ['#'], quotes: ['"', "'"] },
  sql: { keywords: SQL, lineComment: ['--'], blockComment: ['/*', '*/'], quotes: ["'", '"'] },
  json: { keywords: new Set(), lineComment: [], quotes: ['"'], keys: true },
  yaml: { keywords: new Set(), lineComment: ['#'], quotes: ['"', "'"], keys: true },
};

// biome-ignore format: a lookup table reads better dense
const ALIASES: Record<string, string> = {
  ts: 'js', typescript: 'js', tsx: 'js', jsx: 'js', javascript: 'js', mjs: 'js', cjs: 'js',
  py: 'python', python3: 'python',
  sh: 'shell', bash: 'shell', zsh: 'shell', console: 'shell', shellscript: 'shell', fish: 'shell',
  golang: 'go', rs: 'rust',
  java: 'c', cpp: 'c', 'c++': 'c', h: 'c', hpp: 'c', cs: 'c', csharp: 'c', kotlin: 'c', kt: 'c', swift: 'c', scala: 'c', php: 'c',
  rb: 'ruby', jsonc: 'json', json5: 'json', yml: 'yaml', toml: 'yaml', ini: 'yaml',
};

const STYLE = {
  keyword: { color: 'keyword' },
  string: { color: 'string' },
  number: { color: 'number' },
  comment: { color: 'comment' },
  constant: { color: 'constant' },
  type: { color: 'type' },
  call: { color: 'function' },
  key: { color: 'property' },
  variable: { color: 'variable' },
} satisfies Record<string, Style>;

/** Lines longer than this are shown plain: highlighting them buys little and costs much. */
const MAX_HIGHLIGHT_CHARS = 1_000;

export function languageOf(tag: string): string | undefined {
  const name = tag.trim().toLowerCase().split(/[\s{]/)[0];
  if (name === 'diff' || name === 'patch') return 'diff';
  if (SPECS[name]) return name;
  return ALIASES[name];
}

type Carry = { kind: 'comment' } | { kind: 'string'; close: string } | undefined;

/** Highlights the lines of one code block. */
export function highlightCode(lines: string[], languageTag: string): Line[] {
  const language = languageOf(languageTag);
  if (language === 'diff') return lines.map(diffLine);
  const spec = language ? SPECS[language] : undefined;
  if (!spec) return lines.map((text) => [{ text }]);
  let carry: Carry;
  return lines.map((text) => {
    if (text.length > MAX_HIGHLIGHT_CHARS) return [{ text }];
    const result = highlightLine(text, spec, carry);
    carry = result.carry;
    return result.line;
  });
}

export function diffLine(text: string): Line {
  if (text.startsWith('+++') || text.startsWith('---')) return [{ text, style: { bold: true } }];
  if (text.startsWith('+')) return [{ text, style: { color: 'added' } }];
  if (text.startsWith('-')) return [{ text, style: { color: 'removed' } }];
  if (text.startsWith('@@')) return [{ text, style: { color: 'accent' } }];
  return [{ text }];
}

function highlightLine(text: string, spec: LanguageSpec, carry: Carry): { line: Line; carry: Carry } {
  const line: Span[] = [];
  const add = (part: string, style?: Style) => {
    if (part) line.push(style ? { text: part, style } : { text: part });
  };
  let i = 0;
  // Finish what the previous line left open.
  if (carry?.kind === 'comment' && spec.blockComment) {
    const end = text.indexOf(spec.blockComment[1]);
    if (end < 0) return { line: [{ text, style: STYLE.comment }], carry };
    i = end + spec.blockComment[1].length;
    add(text.slice(0, i), STYLE.comment);
  } else if (carry?.kind === 'string') {
    const end = findClose(text, 0, carry.close);
    if (end < 0) return { line: [{ text, style: STYLE.string }], carry };
    i = end;
    add(text.slice(0, i), STYLE.string);
  }
  let plain = '';
  const flush = () => {
    add(plain);
    plain = '';
  };
  while (i < text.length) {
    const rest = text.slice(i);
    const lineComment = spec.lineComment.find((c) => rest.startsWith(c));
    if (lineComment && !(spec.shell && i > 0 && !/\s/.test(text[i - 1]))) {
      flush();
      add(rest, STYLE.comment);
      return { line, carry: undefined };
    }
    if (spec.blockComment && rest.startsWith(spec.blockComment[0])) {
      flush();
      const end = text.indexOf(spec.blockComment[1], i + spec.blockComment[0].length);
      if (end < 0) {
        add(rest, STYLE.comment);
        return { line, carry: { kind: 'comment' } };
      }
      const stop = end + spec.blockComment[1].length;
      add(text.slice(i, stop), STYLE.comment);
      i = stop;
      continue;
    }
    const quote = openingQuote(rest, spec);
    if (quote) {
      flush();
      const end = findClose(text, i + quote.length, quote);
      const multiLine = quote.length === 3 || quote === '`';
      if (end < 0) {
        add(rest, STYLE.string);
        return { line, carry: multiLine ? { kind: 'string', close: quote } : undefined };
      }
      const isKey = spec.keys && /^\s*:/.test(text.slice(end));
      add(text.slice(i, end), isKey ? STYLE.key : STYLE.string);
      i = end;
      continue;
    }
    const token = /^[A-Za-z_$][\w$]*|^\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?|^0[xX][\da-fA-F]+/.exec(rest);
    if (token && !/[\w$]/.test(text[i - 1] ?? '')) {
      const style = tokenStyle(token[0], text, i, spec);
      if (style) {
        flush();
        add(token[0], style);
      } else plain += token[0];
      i += token[0].length;
      continue;
    }
    if (spec.shell && /^-{1,2}[\w-]+/.test(rest) && /\s/.test(text[i - 1] ?? ' ')) {
      const flag = /^-{1,2}[\w-]+/.exec(rest)![0];
      flush();
      add(flag, STYLE.variable);
      i += flag.length;
      continue;
    }
    plain += text[i];
    i++;
  }
  flush();
  return { line, carry: undefined };
}

function tokenStyle(word: string, text: string, at: number, spec: LanguageSpec): Style | undefined {
  if (/^\d|^0x/i.test(word)) return STYLE.number;
  if (spec.shell && text[at - 1] === '$') return STYLE.variable;
  if (spec.keys && /^\s*:/.test(text.slice(at + word.length)) && /^\s*(-\s*)?$/.test(text.slice(0, at)))
    return STYLE.key;
  if (CONSTANTS.has(word)) return STYLE.constant;
  if (spec.keywords.has(word)) return STYLE.keyword;
  if (spec.keys || spec.shell) return undefined;
  if (/^\s*\(/.test(text.slice(at + word.length))) return STYLE.call;
  if (/^[A-Z][a-z]\w*$/.test(word)) return STYLE.type;
  return undefined;
}

function openingQuote(rest: string, spec: LanguageSpec): string | undefined {
  if (spec.tripleQuotes && (rest.startsWith('"""') || rest.startsWith("'''"))) return rest.slice(0, 3);
  const q = rest[0];
  return spec.quotes.includes(q) ? q : undefined;
}

/** The index just past the closing quote, or -1 when the line ends first. */
function findClose(text: string, from: number, close: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text.startsWith(close, i)) return i + close.length;
  }
  return -1;
}
