import { extname } from 'node:path';

/** Grammar files shipped by @vscode/tree-sitter-wasm, as `wasm/tree-sitter-<name>.wasm`. */
export type GrammarName =
  | 'typescript'
  | 'tsx'
  | 'javascript'
  | 'python'
  | 'go'
  | 'rust'
  | 'java'
  | 'cpp'
  | 'c-sharp'
  | 'ruby'
  | 'php';

/**
 * How to find definitions in one language.
 *
 * Each query pattern captures the definition node as `@definition.<kind>` and its name as `@name`.
 * A pattern may also capture `@line`: the node whose line is reported, for the few constructs whose
 * name comes after the body (a C `typedef struct { ... } name;`). Otherwise the name's line is
 * reported, which skips decorators and annotations written above a definition.
 * When several patterns match the same node, the one written first wins.
 */
export interface LanguageSpec {
  grammar: GrammarName;
  query: string;
  /**
   * Node types whose contents never belong in an outline: function bodies, because what is defined
   * there is local, and (for C++) parameter lists.
   */
  localScopes: ReadonlySet<string>;
}

/** Shared by JavaScript and TypeScript; class fields differ between the two grammars and are added below. */
const SCRIPT_QUERY = `
(class_declaration name: (_) @name) @definition.class
(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(class_body (method_definition name: (_) @name) @definition.method)
`;

const TYPESCRIPT_QUERY = `${SCRIPT_QUERY}
(abstract_class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: (_) @name) @definition.namespace
(module name: (_) @name) @definition.module
(function_signature name: (_) @name) @definition.function
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
(class_body
  (public_field_definition name: (_) @name value: [(arrow_function) (function_expression)]) @definition.method)
(interface_body (method_signature name: (_) @name) @definition.method)
`;

const JAVASCRIPT_QUERY = `${SCRIPT_QUERY}
(class_body
  (field_definition property: (_) @name value: [(arrow_function) (function_expression)]) @definition.method)
`;

const SCRIPT_SCOPES = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
  'class_static_block',
]);

const typescript: LanguageSpec = {
  grammar: 'typescript',
  query: TYPESCRIPT_QUERY,
  localScopes: SCRIPT_SCOPES,
};
const tsx: LanguageSpec = { grammar: 'tsx', query: TYPESCRIPT_QUERY, localScopes: SCRIPT_SCOPES };
// The javascript grammar parses JSX too, so .jsx needs no separate grammar.
const javascript: LanguageSpec = {
  grammar: 'javascript',
  query: JAVASCRIPT_QUERY,
  localScopes: SCRIPT_SCOPES,
};

const python: LanguageSpec = {
  grammar: 'python',
  query: `
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
`,
  localScopes: new Set(['function_definition', 'lambda']),
};

const go: LanguageSpec = {
  grammar: 'go',
  query: `
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(function_declaration name: (identifier) @name) @definition.function
(method_declaration name: (field_identifier) @name) @definition.method
(method_elem name: (field_identifier) @name) @definition.method
`,
  localScopes: new Set(['function_declaration', 'method_declaration', 'func_literal']),
};

const rust: LanguageSpec = {
  grammar: 'rust',
  query: `
(struct_item name: (_) @name) @definition.struct
(enum_item name: (_) @name) @definition.enum
(union_item name: (_) @name) @definition.union
(trait_item name: (_) @name) @definition.trait
(impl_item type: (_) @name) @definition.impl
(mod_item name: (_) @name body: (_)) @definition.module
(type_item name: (_) @name) @definition.type
(macro_definition name: (_) @name) @definition.macro
(function_item name: (_) @name) @definition.function
(function_signature_item name: (_) @name) @definition.function
`,
  localScopes: new Set(['function_item', 'closure_expression']),
};

const java: LanguageSpec = {
  grammar: 'java',
  query: `
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(annotation_type_declaration name: (_) @name) @definition.interface
(enum_declaration name: (_) @name) @definition.enum
(record_declaration name: (_) @name) @definition.record
(constructor_declaration name: (_) @name) @definition.method
(method_declaration name: (_) @name) @definition.method
`,
  // Anonymous classes (`new Runnable() { ... }`) are implementation detail, like local classes.
  localScopes: new Set([
    'method_declaration',
    'constructor_declaration',
    'compact_constructor_declaration',
    'lambda_expression',
    'static_initializer',
    'object_creation_expression',
  ]),
};

// There is no C grammar in @vscode/tree-sitter-wasm; C is close enough to a subset of C++ that the
// C++ grammar parses it (and its header files) well, so C and C++ share this spec.
//
// Functions are matched at their declarator rather than at the definition or declaration around
// it: one pattern then covers bodies, prototypes, in-class declarations and any pointer or
// reference return type (`char **split(...)`), and compiles several times faster than patterns
// spelling each of those out. Restricting the name leaves out function pointers (`int (*f)(int)`).
const cpp: LanguageSpec = {
  grammar: 'cpp',
  query: `
(namespace_definition name: (_) @name) @definition.namespace
(class_specifier name: (_) @name body: (_)) @definition.class
(struct_specifier name: (_) @name body: (_)) @definition.struct
(union_specifier name: (_) @name body: (_)) @definition.union
(enum_specifier name: (_) @name body: (_)) @definition.enum
(type_definition "typedef" @line declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (_) @name) @definition.type
(function_declarator
  declarator: [
    (identifier) (field_identifier) (qualified_identifier) (destructor_name) (operator_name) (template_function)
  ] @name) @definition.function
`,
  // Function bodies, lambdas and blocks are all compound statements. Parameter lists hold
  // declarators of callback parameters (`int compare(const void *, const void *)`), not functions.
  localScopes: new Set(['compound_statement', 'parameter_list']),
};

const csharp: LanguageSpec = {
  grammar: 'c-sharp',
  query: `
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(struct_declaration name: (_) @name) @definition.struct
(enum_declaration name: (_) @name) @definition.enum
(record_declaration name: (_) @name) @definition.record
(delegate_declaration name: (_) @name) @definition.type
(constructor_declaration name: (_) @name) @definition.method
(method_declaration name: (_) @name) @definition.method
`,
  localScopes: new Set([
    'method_declaration',
    'constructor_declaration',
    'destructor_declaration',
    'operator_declaration',
    'accessor_declaration',
    'local_function_statement',
    'lambda_expression',
    'anonymous_method_expression',
  ]),
};

// Blocks are not local scopes here: Ruby DSLs (`class_methods do`, `Class.new do`) define real
// methods inside them.
const ruby: LanguageSpec = {
  grammar: 'ruby',
  query: `
(module name: (_) @name) @definition.module
(class name: (_) @name) @definition.class
(method name: (_) @name) @definition.method
(singleton_method name: (_) @name) @definition.method
`,
  localScopes: new Set(['method', 'singleton_method']),
};

const php: LanguageSpec = {
  grammar: 'php',
  query: `
(namespace_definition name: (_) @name) @definition.namespace
(class_declaration name: (_) @name) @definition.class
(interface_declaration name: (_) @name) @definition.interface
(trait_declaration name: (_) @name) @definition.trait
(enum_declaration name: (_) @name) @definition.enum
(function_definition name: (_) @name) @definition.function
(method_declaration name: (_) @name) @definition.method
`,
  localScopes: new Set(['function_definition', 'method_declaration', 'anonymous_function', 'arrow_function']),
};

const LANGUAGE_BY_EXTENSION: ReadonlyMap<string, LanguageSpec> = new Map([
  ['.ts', typescript],
  ['.mts', typescript],
  ['.cts', typescript],
  ['.tsx', tsx],
  ['.js', javascript],
  ['.mjs', javascript],
  ['.cjs', javascript],
  ['.jsx', javascript],
  ['.py', python],
  ['.pyi', python],
  ['.go', go],
  ['.rs', rust],
  ['.java', java],
  ['.c', cpp],
  ['.h', cpp],
  ['.cpp', cpp],
  ['.cc', cpp],
  ['.cxx', cpp],
  ['.hpp', cpp],
  ['.hh', cpp],
  ['.hxx', cpp],
  ['.cs', csharp],
  ['.rb', ruby],
  ['.rake', ruby],
  ['.php', php],
]);

/** The language of a file, by its extension (case-insensitive); undefined when outlines don't support it. */
export function languageForFile(fileName: string): LanguageSpec | undefined {
  return LANGUAGE_BY_EXTENSION.get(extname(fileName).toLowerCase());
}

/** Every extension that can be outlined, with its dot, sorted. */
export function supportedExtensions(): string[] {
  return [...LANGUAGE_BY_EXTENSION.keys()].sort();
}
