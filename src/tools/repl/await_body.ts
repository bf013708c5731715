import type { Node, Tree } from 'web-tree-sitter';
import { loadGrammar, loadTreeSitter } from '../../util/tree_sitter.js';

/**
 * Code that awaits at its top runs as the body of an async function. Written as it is, its
 * `const r = await x; r` would give nothing back and forget `r`; rewritten here, it behaves as a
 * script does: the value of its last expression statement is returned, and what it declares at
 * the top stays for the next call.
 *
 * - `let` / `const` / `var` declarations become assignments (`void (r = await x)`), which in the
 *   context's sloppy code set the global binding a former call made, or a new global property;
 *   one without a value sets undefined. A `const` so declared can be assigned again later.
 * - a class declaration becomes an assignment of the class (`C = class C {}`);
 * - a function declaration stays where it is (so it is hoisted within the call) and is also
 *   published as a global property at the start of the body;
 * - the last statement, when it is an expression, is returned (`return (r)`).
 *
 * Every edit keeps the code's lines where they were, so an error's line number is the code's.
 * The result is the text to put between `(async () => {` and `})()`; undefined when the code
 * does not parse (the worker then compiles it as written and reports the syntax error).
 */
export async function awaitBody(code: string): Promise<string | undefined> {
  const tree = await parse(code);
  try {
    return tree?.rootNode.hasError === false ? rewrite(code, tree.rootNode) : undefined;
  } finally {
    tree?.delete();
  }
}

function rewrite(code: string, root: Node): string {
  const statements = root.namedChildren.filter(
    (node): node is Node => node !== null && node.type !== 'comment',
  );
  const edits: Edit[] = [];
  const published: string[] = [];
  for (const statement of statements) {
    if (statement.type === 'lexical_declaration' || statement.type === 'variable_declaration')
      edits.push(...declarationEdits(statement));
    else if (statement.type === 'class_declaration') edits.push(...classEdits(statement));
    else if (
      statement.type === 'function_declaration' ||
      statement.type === 'generator_function_declaration'
    ) {
      const name = statement.childForFieldName('name')?.text;
      if (name !== undefined) published.push(`globalThis[${JSON.stringify(name)}] = ${name};`);
    }
  }
  const last = statements.at(-1);
  const value = last?.type === 'expression_statement' ? last.namedChild(0) : null;
  if (value) edits.push({ at: value.startIndex, text: 'return (' }, { at: value.endIndex, text: ')' });
  return `${published.join(' ')}\n${applyEdits(code, edits)}`;
}

/** An insertion at `at`, or the replacement of `at`…`to` by `text`. */
interface Edit {
  at: number;
  to?: number;
  text: string;
}

/** `let a = 1, {b} = o;` → `void (a = 1, {b} = o);` (the keyword replaced, the parentheses added). */
function declarationEdits(declaration: Node): Edit[] {
  const keyword = declaration.child(0);
  const declarators = declaration.namedChildren.filter(
    (node): node is Node => node !== null && node.type === 'variable_declarator',
  );
  const lastDeclarator = declarators.at(-1);
  if (keyword === null || lastDeclarator === undefined) return [];
  const edits: Edit[] = [{ at: keyword.startIndex, to: keyword.endIndex, text: 'void (' }];
  for (const declarator of declarators) {
    if (declarator.childForFieldName('value') === null)
      edits.push({ at: declarator.endIndex, text: ' = undefined' });
  }
  edits.push({ at: lastDeclarator.endIndex, text: ')' });
  return edits;
}

/** `class C {}` → `C = class C {};`. */
function classEdits(declaration: Node): Edit[] {
  const name = declaration.childForFieldName('name')?.text;
  if (name === undefined) return [];
  return [
    { at: declaration.startIndex, text: `${name} = ` },
    { at: declaration.endIndex, text: ';' },
  ];
}

/** The code with the edits made; edits at the same place keep their order. */
function applyEdits(code: string, edits: Edit[]): string {
  const sorted = edits
    .map((edit, order) => ({ ...edit, order }))
    .sort((a, b) => a.at - b.at || a.order - b.order);
  const pieces: string[] = [];
  let copied = 0;
  for (const edit of sorted) {
    pieces.push(code.slice(copied, edit.at), edit.text);
    copied = edit.to ?? edit.at;
  }
  pieces.push(code.slice(copied));
  return pieces.join('');
}

async function parse(code: string): Promise<Tree | null> {
  const treeSitter = await loadTreeSitter();
  const language = await loadGrammar('javascript');
  const parser = new treeSitter.Parser();
  try {
    parser.setLanguage(language);
    return parser.parse(code);
  } finally {
    parser.delete();
  }
}
