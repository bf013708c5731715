import type { Parser, TreeCursor } from 'web-tree-sitter';
import type { CodeLanguage } from './code_languages.js';
import { CODE_STYLES, type CodeRole, type Line, type Span } from './style.js';

/** A coloured stretch of the code, by UTF-16 offsets (web-tree-sitter's indices). */
interface Coloured {
  start: number;
  end: number;
  role: CodeRole;
}

/** A node above the cursor: its type and the field it fills in its own parent. */
interface Ancestor {
  type: string;
  field: string | null;
}

const NAME_TYPES = new Set(['identifier', 'property_identifier', 'field_identifier', 'name', 'word']);
const CALL = /call|invocation/;
const DEFINITION = /function|method/;
const MEMBER = /member|attribute|field_expression|selector|scoped/;
const CALLEE_FIELDS = new Set(['function', 'name', 'method']);
const MEMBER_FIELDS = new Set(['property', 'attribute', 'field', 'name']);
const KEYWORD = /^#?[a-z_][a-z_0-9]*$/i;

/** Colours the lines of one code block by the syntax tree the parser reads from them. */
export function colorCode(parser: Parser, lines: string[], language: CodeLanguage): Line[] {
  const code = lines.join('\n');
  const [before, after] = language.wrap?.(code) ?? ['', ''];
  const tree = parser.parse(before + code + after);
  if (!tree) return lines.map((text) => [{ text }]);
  const cursor = tree.walk();
  try {
    const ranges = coloredRanges(cursor, language).map((r) => ({
      ...r,
      start: Math.max(0, r.start - before.length),
      end: Math.min(code.length, r.end - before.length),
    }));
    return toLines(lines, ranges);
  } finally {
    cursor.delete();
    tree.delete();
  }
}

/** Walks the tree in order; a coloured node is one stretch, and what is inside it is not visited. */
function coloredRanges(cursor: TreeCursor, language: CodeLanguage): Coloured[] {
  const ranges: Coloured[] = [];
  const ancestors: Ancestor[] = [];
  for (;;) {
    const role = roleAt(cursor, ancestors, language);
    if (role) ranges.push({ start: cursor.startIndex, end: cursor.endIndex, role });
    else {
      const self = { type: cursor.nodeType, field: cursor.currentFieldName };
      if (cursor.gotoFirstChild()) {
        ancestors.push(self);
        continue;
      }
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return ranges;
      ancestors.pop();
    }
  }
}

function roleAt(cursor: TreeCursor, ancestors: Ancestor[], language: CodeLanguage): CodeRole | undefined {
  const type = cursor.nodeType;
  if (!cursor.nodeIsNamed) return KEYWORD.test(type) && type.length > 1 ? 'keyword' : undefined;
  const field = cursor.currentFieldName;
  const parent = ancestors[ancestors.length - 1];
  if (field === 'key' && parent?.type === 'pair') return 'property';
  const role = language.types[type];
  if (role) return role;
  if (
    NAME_TYPES.has(type) &&
    parent &&
    field &&
    isFunctionName(field, parent, ancestors[ancestors.length - 2])
  )
    return 'function';
  return undefined;
}

/** A called or defined function's name: `f(…)`, `a.f(…)`, `def f`, `function f`. */
function isFunctionName(field: string, parent: Ancestor, grandparent: Ancestor | undefined): boolean {
  if (CALL.test(parent.type)) return CALLEE_FIELDS.has(field);
  if (DEFINITION.test(parent.type)) return field === 'name';
  return (
    MEMBER.test(parent.type) &&
    MEMBER_FIELDS.has(field) &&
    grandparent !== undefined &&
    CALL.test(grandparent.type) &&
    parent.field === 'function'
  );
}

/** Cuts the block's coloured stretches (in order, never overlapping) at its line ends. */
function toLines(lines: string[], ranges: Coloured[]): Line[] {
  const out: Line[] = [];
  let offset = 0;
  let next = 0;
  for (const text of lines) {
    const end = offset + text.length;
    const line: Span[] = [];
    let at = offset;
    const add = (to: number, role?: CodeRole) => {
      if (to > at)
        line.push(
          role
            ? { text: text.slice(at - offset, to - offset), style: CODE_STYLES[role] }
            : { text: text.slice(at - offset, to - offset) },
        );
      at = Math.max(at, to);
    };
    while (next < ranges.length && ranges[next].start < end) {
      const range = ranges[next];
      if (range.end > at) {
        add(Math.max(range.start, at));
        add(Math.min(range.end, end), range.role);
      }
      if (range.end > end) break;
      next++;
    }
    add(end);
    out.push(line.length > 0 ? line : [{ text }]);
    offset = end + 1;
  }
  return out;
}
