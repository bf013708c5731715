/**
 * The accessibility snapshot as the model reads it: one line per node, indented by depth, capped
 * at a token budget, filtered by `find`, and after the first snapshot of a page only what changed.
 */
export type TreeLine = [depth: number, text: string];

/** Snapshots are capped here: a page's tree must not flood the context. */
export const SNAPSHOT_TOKEN_CAP = 8_000;
/**
 * Characters per token, cautiously low: the tree's lines (roles, quoted names, references) come
 * to 3.5–4.5 characters a token in the o200k and cl100k encodings.
 */
const CHARS_PER_TOKEN = 3;

const render = ([depth, text]: TreeLine) => `${'  '.repeat(depth)}- ${text}`;

/** The lines that match `find` (case-insensitive), each under the chain of nodes that holds it. */
export function filterTree(lines: readonly TreeLine[], find: string): TreeLine[] {
  const needle = find.toLowerCase();
  const kept = new Set<number>();
  const chain: number[] = [];
  lines.forEach(([depth, text], index) => {
    chain.length = depth;
    chain[depth] = index;
    if (text.toLowerCase().includes(needle)) for (const i of chain) kept.add(i);
  });
  return lines.filter((_, index) => kept.has(index));
}

/** Renders lines up to the cap; says how many were left out and how to see them. */
export function renderCapped(lines: readonly TreeLine[], tokenCap = SNAPSHOT_TOKEN_CAP): string {
  const budget = tokenCap * CHARS_PER_TOKEN;
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    const text = render(line);
    if (used + text.length + 1 > budget) {
      out.push(
        `… ${lines.length - out.length} more lines left out (snapshot capped at ${tokenCap.toLocaleString('en-US')} tokens): pass find to see only the nodes that match a word, or scroll and take another snapshot.`,
      );
      break;
    }
    out.push(text);
    used += text.length + 1;
  }
  return out.join('\n');
}

/**
 * What changed from `before` to `after`, as removed (`-`) and added (`+`) lines, each added line
 * under its parent (unmarked) so the model knows where it is. Lines compare as depth and text,
 * so a field whose value changed shows as its old line removed and its new line added.
 */
export function treeDelta(before: readonly TreeLine[], after: readonly TreeLine[]): TreeLine[] {
  const key = ([depth, text]: TreeLine) => `${depth}\u0000${text}`;
  const remaining = new Map<string, number>();
  for (const line of before) remaining.set(key(line), (remaining.get(key(line)) ?? 0) + 1);
  const added = new Set<number>();
  after.forEach((line, index) => {
    const count = remaining.get(key(line)) ?? 0;
    if (count > 0) remaining.set(key(line), count - 1);
    else added.add(index);
  });
  const removed = before.filter((line) => {
    const count = remaining.get(key(line)) ?? 0;
    if (count === 0) return false;
    remaining.set(key(line), count - 1);
    return true;
  });
  const out: TreeLine[] = removed.map(([depth, text]) => [depth, `(removed) ${text}`]);
  const chain: number[] = [];
  const shown = new Set<number>();
  after.forEach(([depth, text], index) => {
    chain.length = depth;
    chain[depth] = index;
    if (!added.has(index)) return;
    for (const parent of chain.slice(0, -1)) {
      if (shown.has(parent) || added.has(parent)) continue;
      shown.add(parent);
      out.push([after[parent][0], `(in) ${after[parent][1]}`]);
    }
    shown.add(index);
    out.push([depth, `(new) ${text}`]);
  });
  return out;
}
