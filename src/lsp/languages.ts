import { extname } from 'node:path';

/** File extensions and the LSP language ids they stand for. */
const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.py': 'python',
  '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
  '.hh': 'cpp',
  '.sh': 'shellscript',
  '.bash': 'shellscript',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.css': 'css',
  '.scss': 'scss',
  '.less': 'less',
  '.html': 'html',
  '.htm': 'html',
  '.java': 'java',
  '.rb': 'ruby',
  '.lua': 'lua',
};

/** The language id of a file by its extension (`extra`: extensions settings add), or undefined. */
export function languageOfPath(
  path: string,
  extra: Readonly<Record<string, string>> = {},
): string | undefined {
  const ext = extname(path).toLowerCase();
  return extra[ext] ?? LANGUAGE_BY_EXTENSION[ext];
}

const JS_RESERVED =
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await';
const PY_RESERVED =
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield';

/** What makes a name an identifier, by language family; languages not listed are left to their server. */
const IDENTIFIER_RULES: Array<{ languages: string[]; pattern: RegExp; reserved: Set<string> }> = [
  {
    languages: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
    pattern: /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u,
    reserved: new Set(JS_RESERVED.split(' ')),
  },
  {
    languages: ['python'],
    pattern: /^[\p{ID_Start}_][\p{ID_Continue}]*$/u,
    reserved: new Set(PY_RESERVED.split(' ')),
  },
  {
    languages: ['go', 'rust', 'c', 'cpp', 'java'],
    pattern: /^[\p{L}_][\p{L}\p{N}_]*$/u,
    reserved: new Set(),
  },
];

/** Why `name` cannot be an identifier in `language`, or undefined (also for languages lathe does not judge). */
export function identifierProblem(language: string, name: string): string | undefined {
  const rule = IDENTIFIER_RULES.find((r) => r.languages.includes(language));
  if (!rule) return undefined;
  if (!rule.pattern.test(name)) return `${JSON.stringify(name)} is not a valid ${language} identifier`;
  if (rule.reserved.has(name)) return `${JSON.stringify(name)} is a reserved word in ${language}`;
  return undefined;
}
