import type { Node, Query } from 'web-tree-sitter';
import { type LanguageSpec, languageForFile } from './languages.js';
import { loadLanguage } from './parser.js';

export interface Definition {
  /** class, interface, type, enum, function, method, struct, trait, impl, union, record, module, namespace, macro. */
  kind: string;
  name: string;
  /** 1-based. */
  line: number;
  /** The definition's first line, trimmed, at most {@link MAX_TEXT_LENGTH} characters. */
  text: string;
  /** How many containers (class, namespace, impl, ...) enclose it: 0 at the top level, 1 for a method. */
  depth: number;
}

export interface OutlineResult {
  /** In source order. */
  definitions: Definition[];
}

export const MAX_TEXT_LENGTH = 200;

/** Kinds that group other definitions: whatever is found inside one is listed one level under it. */
const CONTAINER_KINDS = new Set([
  'class',
  'interface',
  'struct',
  'union',
  'enum',
  'record',
  'trait',
  'impl',
  'module',
  'namespace',
]);

/** Containers in which a function is a method (the rest, modules and namespaces, only group). */
const TYPE_KINDS = new Set(['class', 'interface', 'struct', 'union', 'enum', 'record', 'trait', 'impl']);

/**
 * The top-level definitions of a source file, with the members of its classes and other types.
 * Null when the file's extension has no grammar. Syntax errors never throw: whatever parses is kept.
 */
export async function outlineSource(source: string, fileName: string): Promise<OutlineResult | null> {
  const spec = languageForFile(fileName);
  if (!spec) return null;
  const { parser, query } = await loadLanguage(spec);
  const tree = parser.parse(source);
  if (!tree) return { definitions: [] };
  try {
    return { definitions: collectDefinitions(tree.rootNode, query, spec, source) };
  } finally {
    // Trees live in wasm memory, which the JS garbage collector never frees.
    tree.delete();
  }
}

interface Candidate {
  node: Node;
  kind: string;
  name: string;
  row: number;
  patternIndex: number;
}

function collectDefinitions(root: Node, query: Query, spec: LanguageSpec, source: string): Definition[] {
  const candidates = matchCandidates(root, query);
  const lines = source.split('\n');
  const definitions: Array<Definition & { start: number }> = [];
  for (const candidate of candidates.values()) {
    const placement = placeInOutline(candidate, candidates, spec);
    if (!placement) continue;
    const kind = candidate.kind === 'function' && placement.insideType ? 'method' : candidate.kind;
    definitions.push({
      kind,
      name: candidate.name,
      line: candidate.row + 1,
      text: firstLine(lines[candidate.row] ?? ''),
      depth: placement.depth,
      start: candidate.node.startIndex,
    });
  }
  definitions.sort((a, b) => a.line - b.line || a.depth - b.depth || a.start - b.start);
  return definitions.map(({ start: _start, ...definition }) => definition);
}

/** One candidate per definition node; when patterns overlap, the one written first in the query wins. */
function matchCandidates(root: Node, query: Query): Map<number, Candidate> {
  const candidates = new Map<number, Candidate>();
  for (const match of query.matches(root)) {
    let definition: Node | undefined;
    let kind = '';
    let name: Node | undefined;
    let lineNode: Node | undefined;
    for (const capture of match.captures) {
      if (capture.name.startsWith('definition.')) {
        definition = capture.node;
        kind = capture.name.slice('definition.'.length);
      } else if (capture.name === 'name') {
        name = capture.node;
      } else if (capture.name === 'line') {
        lineNode = capture.node;
      }
    }
    if (!definition || !name) continue;
    const existing = candidates.get(definition.id);
    if (existing && existing.patternIndex <= match.patternIndex) continue;
    candidates.set(definition.id, {
      node: definition,
      kind,
      name: name.text.replace(/\s+/g, ' '),
      row: (lineNode ?? name).startPosition.row,
      patternIndex: match.patternIndex,
    });
  }
  return candidates;
}

/**
 * Where a definition sits: how many containers enclose it and whether the nearest is a type.
 * Undefined when it is local to a function body, which an outline leaves out.
 */
function placeInOutline(
  candidate: Candidate,
  candidates: Map<number, Candidate>,
  spec: LanguageSpec,
): { depth: number; insideType: boolean } | undefined {
  let depth = 0;
  let nearestContainer: string | undefined;
  for (let ancestor = candidate.node.parent; ancestor; ancestor = ancestor.parent) {
    if (spec.localScopes.has(ancestor.type)) return undefined;
    const enclosing = candidates.get(ancestor.id);
    if (enclosing && CONTAINER_KINDS.has(enclosing.kind)) {
      depth++;
      nearestContainer ??= enclosing.kind;
    }
  }
  return { depth, insideType: nearestContainer !== undefined && TYPE_KINDS.has(nearestContainer) };
}

function firstLine(line: string): string {
  const trimmed = line.trim();
  return trimmed.length <= MAX_TEXT_LENGTH ? trimmed : `${trimmed.slice(0, MAX_TEXT_LENGTH - 1)}…`;
}
