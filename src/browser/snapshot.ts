/**
 * The accessibility snapshot as the model reads it: one line per node, indented by depth, capped
 * at a token budget, filtered by `find`, and after the first snapshot of a page only what changed.
 */
export type TreeLine = [depth: number, text: string];

/** Snapshots are capped here: a page's tree must not flood the context. */
export const SNAPSHOT_TOKEN_CAP = 8_000;
/**
 * Tokens are counted with the o200k encoding; other models' tokenizers differ by a few percent,
 * so lines are kept to 95% of the cap. Short texts are certainly within it and are not counted.
 */
const COUNTED_SHARE = 0.95;
const SURELY_WITHIN_CHARS = 8_000;

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
export async function renderCapped(
  lines: readonly TreeLine[],
  tokenCap = SNAPSHOT_TOKEN_CAP,
): Promise<string> {
  const rendered = lines.map(render);
  const whole = rendered.join('\n');
  if (whole.length <= SURELY_WITHIN_CHARS) return whole;
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const budget = Math.floor(tokenCap * COUNTED_SHARE);
  let used = 0;
  let kept = 0;
  for (const line of rendered) {
    // Each line costs its own tokens and about one for the newline.
    const cost = countTokens(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    kept++;
  }
  if (kept === rendered.length) return whole;
  return [
    ...rendered.slice(0, kept),
    `… ${rendered.length - kept} more lines left out (snapshot capped at ${tokenCap.toLocaleString('en-US')} tokens): pass find to see only the nodes that match a word, or scroll and take another snapshot.`,
  ].join('\n');
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
