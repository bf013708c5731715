/** Edits (insert, delete, substitute, swap two neighbours) between two words. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  return rows[a.length][b.length];
}

/**
 * The name a mistyped word most likely meant: one within two edits (one for words of four
 * letters or fewer, so short words do not match everything), or one it starts (three letters at
 * least). Undefined when none is close.
 */
export function closestName(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  const most = typed.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed, name);
    if (distance <= most && distance < (best?.distance ?? Number.POSITIVE_INFINITY))
      best = { name, distance };
  }
  if (best) return best.name;
  return typed.length >= 3 ? names.find((name) => name.startsWith(typed)) : undefined;
}
