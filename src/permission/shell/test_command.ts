import type { Node } from 'web-tree-sitter';
import { arithmeticBody, evaluateWord, type NestedSink, scanNested, UnsupportedShell } from './words.js';

const ARITHMETIC_COMPARISON = /^-(eq|ne|lt|le|gt|ge)$/;

/**
 * Checks `[ … ]`, `[[ … ]]` or `(( … ))` and returns the bracket. They run nothing themselves, but:
 * `-eq`-style operands, `-v` names and `(( … ))` are arithmetic (reported to the sink); and in
 * `[ … ]` a `>` is a redirection that the grammar takes for a comparison.
 */
export function inspectTestCommand(node: Node, sink: NestedSink): string {
  const bracket = node.child(0)?.text ?? '[';
  if (bracket === '((') sink.arithmetic(arithmeticBody(node.text));
  inspectOperands(node, bracket, sink);
  if (bracket === '[') checkTestBuiltinShape(node);
  return bracket;
}

function inspectOperands(node: Node, bracket: string, sink: NestedSink): void {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (bracket === '[' && /[<>]/.test(child.type))
        throw new UnsupportedShell(`redirection inside [ ]: ${node.text}`);
      continue;
    }
    const operator = child.childForFieldName('operator')?.text ?? '';
    if (ARITHMETIC_COMPARISON.test(operator)) {
      for (const side of ['left', 'right']) sink.arithmetic(child.childForFieldName(side)?.text ?? '');
    } else if (operator === '-v' || operator === '-R') {
      sink.arithmetic(child.text);
    }
    if (isExpression(child)) inspectOperands(child, bracket, sink);
    else if (child.type !== 'test_operator') scanNested(child, sink);
  }
}

function isExpression(node: Node): boolean {
  return node.type.endsWith('_expression');
}

/**
 * `[` is the test builtin: bash splits unquoted expansions and then decides from the number of words
 * which are operators, so a word known only at run time could turn into `-v 'a[$(…)]'`, a subscript
 * bash evaluates. With such words only the shapes whose operators are fixed by position are allowed:
 * `[ X ]`, `[ -op X ]` and `[ X op Y ]`, each X one word.
 */
function checkTestBuiltinShape(node: Node): void {
  const operands: Node[] = [];
  collectOperands(node, operands);
  if (operands.every(isStaticWord)) return;
  const expressions = node.namedChildren;
  const [expression] = expressions;
  const inner = expression?.namedChildren ?? [];
  const simple =
    expressions.length === 1 &&
    (!isExpression(expression) ||
      (expression.type === 'unary_expression' && inner.length === 2 && inner[0].type === 'test_operator') ||
      (expression.type === 'binary_expression' && inner.every((part) => !isExpression(part))));
  if (!simple || !operands.every(staysOneWord)) {
    throw new UnsupportedShell(`a [ ] test on words only known at run time: ${node.text}`);
  }
}

function collectOperands(node: Node, into: Node[]): void {
  for (const child of node.namedChildren) {
    if (isExpression(child)) collectOperands(child, into);
    else if (child.type !== 'test_operator') into.push(child);
  }
}

const noSink: NestedSink = { substitution: () => {}, arithmetic: () => {} };

function isStaticWord(node: Node): boolean {
  if (node.type === 'string') return node.namedChildren.every((part) => part.type === 'string_content');
  if (node.type === 'word') return !evaluateWord(node, noSink).dynamic;
  return node.type === 'raw_string' || node.type === 'number' || node.type === 'ansi_c_string';
}

/** Quoted words stay one word whatever they expand to; unquoted expansions and globs may split. */
function staysOneWord(node: Node): boolean {
  return node.type === 'string' || isStaticWord(node);
}
