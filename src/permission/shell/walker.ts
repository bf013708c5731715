import type { Node, Parser } from 'web-tree-sitter';
import { checkHeredocBody, heredocDelimiter } from './heredoc.js';
import { findLayoutProblem, sourceProblem } from './layout.js';
import { readAlikeByShells, type ShellScript, shellScript } from './shell_script.js';
import { inspectTestCommand } from './test_command.js';
import type { Assignment, Redirect, Subcommand, Word } from './types.js';
import { evaluateWord, literal, type NestedSink, scanNested, UnsupportedShell } from './words.js';
import { type Unwrapped, unwrap } from './wrappers.js';

/** Nesting of subshells, groups and substitutions; deeper input is refused, not risked on the stack. */
const MAX_NESTING = 200;

/** Statements whose named children are all statements. */
const SEQUENCES = new Set([
  'program',
  'pipeline',
  'subshell',
  'compound_statement',
  'do_group',
  'negated_command',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
]);

interface PushExtras {
  redirects?: Redirect[];
  assignments?: Assignment[];
}

/** Walks a bash syntax tree and collects every simple command it would run. */
export class StatementWalker {
  readonly subcommands: Subcommand[] = [];
  readonly arithmetic: string[] = [];
  private depth = 0;

  /** With a parser, the script of `bash -lc 'SCRIPT'` is walked as well. */
  constructor(private readonly parser?: Parser) {}

  private readonly sink: NestedSink = {
    substitution: (node) => this.substitution(node),
    arithmetic: (text) => this.arithmetic.push(text),
  };

  statement(node: Node): void {
    if (++this.depth > MAX_NESTING) throw new UnsupportedShell('too deeply nested');
    try {
      this.dispatch(node);
    } finally {
      this.depth--;
    }
  }

  /** How each kind of statement is walked; a kind not listed is refused. */
  private readonly handlers: Record<string, (node: Node) => void> = {
    list: (node) => this.list(node),
    command: (node) => this.command(node),
    redirected_statement: (node) => this.redirected(node),
    variable_assignment: (node) => this.bareAssignments(node),
    variable_assignments: (node) => this.bareAssignments(node),
    for_statement: (node) => this.forLoop(node),
    c_style_for_statement: (node) => this.cStyleFor(node),
    case_statement: (node) => this.caseStatement(node),
    test_command: (node) => this.testCommand(node),
    declaration_command: (node) => this.declaration(node),
    unset_command: (node) => this.declaration(node),
    comment: () => {},
    function_definition: () => {
      throw new UnsupportedShell('defines a function');
    },
  };

  private dispatch(node: Node): void {
    if (SEQUENCES.has(node.type)) this.children(node);
    else if (Object.hasOwn(this.handlers, node.type)) this.handlers[node.type](node);
    else throw new UnsupportedShell(`unsupported shell construct: ${node.type}`);
  }

  /** Every named child as a statement (the bodies of substitutions, groups, loops, conditionals). */
  children(node: Node): void {
    for (const child of node.namedChildren) this.statement(child);
  }

  /** The body of `$(…)`, backquotes or `<(…)`; `$(<file)` holds only a redirection, which bash reads. */
  private substitution(node: Node): void {
    const redirects: Redirect[] = [];
    const words: Word[] = [];
    for (const child of node.namedChildren) {
      if (child.type.endsWith('_redirect')) this.redirect(child, redirects, words);
      else this.statement(child);
    }
    if (redirects.length > 0) this.push(node.text, words, { redirects });
  }

  /** `a && b || c` nests to the left; walked as a loop so long chains do not recurse. */
  private list(node: Node): void {
    const later: Node[] = [];
    let current = node;
    while (current.type === 'list') {
      const parts = current.namedChildren.filter((child) => child.type !== 'comment');
      later.push(...parts.slice(1).reverse());
      current = parts[0];
    }
    this.statement(current);
    for (const part of later.reverse()) this.statement(part);
  }

  private word(node: Node): Word {
    return evaluateWord(node, this.sink);
  }

  private command(node: Node, outer?: { redirects: Redirect[]; words: Word[]; text: string }): void {
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (child.type === 'variable_assignment') assignments.push(this.assignment(child));
      else if (child.type === 'command_name') words.push(this.word(onlyChild(child)));
      else if (field === 'argument') words.push(this.word(child));
      else if (field === 'redirect') this.redirect(child, redirects, words);
      else throw new UnsupportedShell(`unsupported part of a command: ${child.type}`);
    }
    if (outer) {
      redirects.push(...outer.redirects);
      words.push(...outer.words);
    }
    this.push(outer?.text ?? node.text, words, { redirects, assignments });
  }

  /** Records one simple command, peeling off the wrappers that run another. */
  private push(text: string, words: Word[], { redirects = [], assignments = [] }: PushExtras = {}): void {
    const unwrapped = unwrap(words);
    const script = this.parser && shellScript(unwrapped);
    if (script && this.pushScript(script, text, unwrapped, { redirects, assignments })) return;
    this.subcommands.push({
      argv: unwrapped.words.map((word) => word.value),
      words: unwrapped.words,
      text,
      redirects,
      dynamic: unwrapped.words[0]?.dynamic ?? false,
      assignments: [...assignments, ...unwrapped.assignments],
      wrappers: unwrapped.wrappers,
      argsFromInput: unwrapped.argsFromInput,
    });
  }

  /**
   * `bash -lc 'SCRIPT'`: the script's commands take this command's place, each with its wrappers,
   * variables and redirections. False, with nothing recorded, when the script is not wholly understood.
   */
  private pushScript(found: ShellScript, text: string, unwrapped: Unwrapped, outer: PushExtras): boolean {
    const first = { subcommands: this.subcommands.length, arithmetic: this.arithmetic.length };
    const understood = this.walkScript(found.script);
    const inner = this.subcommands.slice(first.subcommands);
    const alike =
      found.bash || readAlikeByShells(found.script, inner, this.arithmetic.length - first.arithmetic);
    if (!understood || inner.length === 0 || !alike) {
      this.subcommands.length = first.subcommands;
      this.arithmetic.length = first.arithmetic;
      return false;
    }
    for (const sub of inner) {
      sub.redirects.push(...(outer.redirects ?? []));
      sub.assignments.unshift(...(outer.assignments ?? []), ...unwrapped.assignments);
      sub.wrappers.unshift(...unwrapped.wrappers, [unwrapped.words[0].value, found.flag]);
      sub.outer = [text, ...(sub.outer ?? [])];
    }
    return true;
  }

  /** Walks a script as a program of its own; false when bash may read it otherwise than this parser. */
  private walkScript(script: string): boolean {
    if (sourceProblem(script)) return false;
    const tree = this.parser!.parse(script);
    if (!tree) return false;
    try {
      if (tree.rootNode.hasError || findLayoutProblem(tree.rootNode, script)) return false;
      this.statement(tree.rootNode);
      return true;
    } catch (error) {
      if (error instanceof UnsupportedShell) return false;
      throw error;
    } finally {
      tree.delete();
    }
  }

  /** A statement followed by redirections; those of a group or loop apply to every command inside. */
  private redirected(node: Node): void {
    const redirects: Redirect[] = [];
    // Bash takes one word per redirection; the grammar hands any following words to it too.
    const extraWords: Word[] = [];
    const redirectNodes = node.childrenForFieldName('redirect');
    for (const redirect of redirectNodes) this.redirect(redirect, redirects, extraWords);
    const body = node.childForFieldName('body');
    if (node.namedChildCount !== redirectNodes.length + (body ? 1 : 0)) {
      throw new UnsupportedShell(`unsupported redirected statement: ${node.text}`);
    }
    if (!body) {
      this.push(node.text, extraWords, { redirects });
      return;
    }
    if (body.type === 'command') {
      this.command(body, { redirects, words: extraWords, text: node.text });
      return;
    }
    if (extraWords.length > 0)
      throw new UnsupportedShell('words after the redirection of a compound command');
    const first = this.subcommands.length;
    this.statement(body);
    if (this.subcommands.length === first) this.push(node.text, []);
    for (const sub of this.subcommands.slice(first)) sub.redirects.push(...redirects);
  }

  private redirect(node: Node, redirects: Redirect[], words: Word[]): void {
    switch (node.type) {
      case 'file_redirect': {
        const fd = node.childForFieldName('descriptor')?.text;
        const op = node.children.find((child) => !child.isNamed)?.text ?? '';
        const [target, ...extra] = node.childrenForFieldName('destination').map((child) => this.word(child));
        redirects.push({ op, target: target?.value ?? '', fd, dynamic: target?.dynamic ?? false });
        words.push(...extra);
        return;
      }
      case 'herestring_redirect': {
        const target = node.namedChildren.map((child) => this.word(child))[0];
        redirects.push({ op: '<<<', target: target?.value ?? '', dynamic: target?.dynamic ?? false });
        return;
      }
      case 'heredoc_redirect':
        this.heredoc(node, redirects, words);
        return;
      default:
        throw new UnsupportedShell(`unsupported redirection: ${node.type}`);
    }
  }

  /**
   * `<<EOF`. The grammar hangs what follows the delimiter on this line (more redirections, a pipe,
   * `&& next`) under the here-document, so those are walked from here.
   */
  private heredoc(node: Node, redirects: Redirect[], words: Word[]): void {
    const op = node.child(0)?.text ?? '<<';
    const start = node.children.find((child) => child.type === 'heredoc_start');
    const delimiter = heredocDelimiter(start?.text ?? '');
    redirects.push({ op, target: delimiter.word, dynamic: false });
    const end = node.children.find((child) => child.type === 'heredoc_end');
    if (end?.text !== delimiter.word)
      throw new UnsupportedShell('here-document delimiter read differently from bash');
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const field = node.fieldNameForChild(i);
      if (!child.isNamed || child.type === 'heredoc_start' || child.type === 'heredoc_end') continue;
      if (child.type === 'heredoc_body') checkHeredocBody(child, delimiter, op === '<<-', this.sink);
      else if (field === 'redirect') this.redirect(child, redirects, words);
      else if (field === 'argument') words.push(this.word(child));
      else this.statement(child);
    }
  }

  private assignment(node: Node): Assignment {
    const nameNode = node.childForFieldName('name');
    if (!nameNode) throw new UnsupportedShell(`unsupported assignment: ${node.text}`);
    let name = nameNode.text;
    if (nameNode.type === 'subscript') {
      scanNested(nameNode, this.sink);
      name = nameNode.childForFieldName('name')?.text ?? name;
    }
    const valueNode = node.childForFieldName('value');
    if (!valueNode) return { name, value: '', dynamic: false };
    if (valueNode.type === 'array') {
      for (const element of valueNode.namedChildren) this.word(element);
      return { name, value: valueNode.text, dynamic: true };
    }
    const value = this.word(valueNode);
    return { name, value: value.value, dynamic: value.dynamic };
  }

  private bareAssignments(node: Node): void {
    const parts = node.type === 'variable_assignment' ? [node] : node.namedChildren;
    this.push(node.text, [], { assignments: parts.map((part) => this.assignment(part)) });
  }

  /** `for name in words; do …; done`: the loop variable is recorded as an assignment. */
  private forLoop(node: Node): void {
    const variable = node.childForFieldName('variable')?.text ?? '';
    const values = node.childrenForFieldName('value').map((value) => this.word(value));
    const header = node.text.slice(
      0,
      (node.childForFieldName('body')?.startIndex ?? node.endIndex) - node.startIndex,
    );
    const value = values.map((word) => word.value).join(' ');
    const dynamic = values.some((word) => word.dynamic);
    this.push(header.trim(), [], { assignments: [{ name: variable, value, dynamic }] });
    const body = node.childForFieldName('body');
    if (body) this.statement(body);
  }

  private cStyleFor(node: Node): void {
    const body = node.childForFieldName('body');
    for (const child of node.namedChildren) {
      if (body && sameNode(child, body)) continue;
      scanNested(child, this.sink);
      this.arithmetic.push(child.text);
    }
    if (body) this.statement(body);
  }

  private caseStatement(node: Node): void {
    for (const value of node.childrenForFieldName('value')) scanNested(value, this.sink);
    for (const item of node.namedChildren) {
      if (
        item.type === 'comment' ||
        node.childrenForFieldName('value').some((value) => sameNode(value, item))
      )
        continue;
      if (item.type !== 'case_item') throw new UnsupportedShell(`unsupported case part: ${item.type}`);
      const patterns = item.childrenForFieldName('value');
      for (const child of item.namedChildren) {
        if (patterns.some((pattern) => sameNode(pattern, child))) scanNested(child, this.sink);
        else this.statement(child);
      }
    }
  }

  /** `[ … ]`, `[[ … ]]`, `(( … ))`: kept as a command named by the bracket. */
  private testCommand(node: Node): void {
    const bracket = inspectTestCommand(node, this.sink);
    this.push(node.text, [literal(bracket)]);
  }

  /** `export`, `declare`, `local`, `readonly`, `typeset`, `unset`: kept as a command named by the keyword. */
  private declaration(node: Node): void {
    const words: Word[] = [];
    for (const child of node.children) {
      if (!child.isNamed) words.push(literal(child.text));
      else if (child.type === 'variable_assignment') {
        const assignment = this.assignment(child);
        const value = `${assignment.name}=${assignment.value}`;
        words.push({ value, dynamic: assignment.dynamic, literalPrefix: assignment.dynamic ? '' : value });
      } else if (child.type === 'variable_name') words.push(literal(child.text));
      else words.push(this.word(child));
    }
    this.push(node.text, words);
  }
}

function onlyChild(node: Node): Node {
  const child = node.namedChild(0);
  if (!child || node.namedChildCount !== 1)
    throw new UnsupportedShell(`unsupported command name: ${node.text}`);
  return child;
}

function sameNode(a: Node, b: Node): boolean {
  return a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;
}
