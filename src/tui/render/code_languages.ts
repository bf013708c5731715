import type { CodeRole } from './style.js';

/**
 * The languages code blocks are coloured in: the tree-sitter grammar that parses each (the ones
 * @vscode/tree-sitter-wasm ships for outlines) and which of its node types get which colour. The
 * grammars carry no highlight queries, so colour comes from node types: a table shared by every
 * language, and a few types of each language's own. Word tokens the grammar spells out (`if`,
 * `def`, `const`) are keywords in every language, so no table lists them.
 */
export interface CodeLanguage {
  /** The grammar's file, `tree-sitter-<grammar>.wasm`. */
  grammar: string;
  /** Node types coloured whole: what is inside them is not looked into. */
  types: Readonly<Record<string, CodeRole>>;
  /** Text put around the block so the grammar reads it whole (JSON as a JavaScript value). */
  wrap?: (code: string) => [before: string, after: string];
}

// biome-ignore format: a lookup table reads better dense
const SHARED: Record<string, CodeRole> = {
  comment: 'comment', line_comment: 'comment', block_comment: 'comment',
  string: 'string', template_string: 'string', string_literal: 'string', raw_string_literal: 'string',
  interpreted_string_literal: 'string', rune_literal: 'string', char_literal: 'string',
  character_literal: 'string', regex: 'string',
  number: 'number', integer: 'number', float: 'number', integer_literal: 'number', float_literal: 'number',
  int_literal: 'number', imaginary_literal: 'number', number_literal: 'number', real_literal: 'number',
  decimal_integer_literal: 'number', decimal_floating_point_literal: 'number', hex_integer_literal: 'number',
  type_identifier: 'type', predefined_type: 'type', primitive_type: 'type', builtin_type: 'type',
  true: 'constant', false: 'constant', null: 'constant', undefined: 'constant', none: 'constant',
  nil: 'constant', boolean_literal: 'constant', null_literal: 'constant',
  this: 'keyword', super: 'keyword', self: 'keyword',
};

const language = (grammar: string, own: Record<string, CodeRole> = {}): CodeLanguage => ({
  grammar,
  types: { ...SHARED, ...own },
});

const typescript = language('typescript');
const tsx = language('tsx');
const javascript = language('javascript');
// JSON (with comments) is a JavaScript value: in parentheses, an object is not read as a block.
const json: CodeLanguage = { ...javascript, wrap: () => ['(\n', '\n)'] };
const python = language('python', { decorator: 'function' });
// biome-ignore format: a lookup table reads better dense
const bash = language('bash', {
  raw_string: 'string', ansi_c_string: 'string', heredoc_body: 'string',
  command_name: 'function', simple_expansion: 'property', expansion: 'property', variable_name: 'property',
});
const go = language('go');
const rust = language('rust', {
  mutable_specifier: 'keyword',
  lifetime: 'type',
  macro_invocation: 'function',
});
const java = language('java');
// There is no C grammar in the package; the C++ one reads C well (as outlines do).
const cpp = language('cpp', { system_lib_string: 'string' });
const csharp = language('c-sharp', {
  verbatim_string_literal: 'string',
  interpolated_string_expression: 'string',
});
const ruby = language('ruby', { constant: 'type', simple_symbol: 'string', symbol: 'string' });
// A PHP block needs its `<?php` opening tag before the grammar reads it as code.
const php: CodeLanguage = {
  ...language('php', { encapsed_string: 'string', variable_name: 'property' }),
  wrap: (code) => [/^\s*<\?/.test(code) ? '' : '<?php\n', ''],
};
// biome-ignore format: a lookup table reads better dense
const css = language('css', {
  property_name: 'property', tag_name: 'keyword', class_name: 'type', id_name: 'type',
  string_value: 'string', integer_value: 'number', float_value: 'number', color_value: 'number',
  plain_value: 'constant', at_keyword: 'keyword',
});
const ini = language('ini', { section_name: 'type', setting_name: 'property', setting_value: 'string' });
const powershell = language('powershell', { variable: 'property' });

// biome-ignore format: a lookup table reads better dense
const BY_TAG: Readonly<Record<string, CodeLanguage>> = {
  ts: typescript, typescript, mts: typescript, cts: typescript, tsx,
  js: javascript, javascript, jsx: javascript, mjs: javascript, cjs: javascript, node: javascript,
  json, jsonc: json, json5: json,
  py: python, python, python3: python, py3: python, pyi: python,
  sh: bash, bash, zsh: bash, shell: bash, shellscript: bash, console: bash,
  go, golang: go, rs: rust, rust, java,
  c: cpp, h: cpp, cpp, 'c++': cpp, cc: cpp, cxx: cpp, hpp: cpp,
  cs: csharp, csharp, 'c#': csharp, rb: ruby, ruby, php, css,
  ini, toml: ini, cfg: ini, ps1: powershell, powershell, pwsh: powershell,
};

/** The first word of a fence's info string (```ts title="a"), lower-cased. */
export function fenceLanguage(tag: string): string {
  return tag.trim().toLowerCase().split(/[\s{]/)[0];
}

/** How a fence's language is coloured, or undefined for a language no grammar reads. */
export function codeLanguage(tag: string): CodeLanguage | undefined {
  const name = fenceLanguage(tag);
  return Object.hasOwn(BY_TAG, name) ? BY_TAG[name] : undefined;
}
