/** Diff lines shown at most; the rest is counted. */
const MAX_DIFF_LINES = 200;
/** Above this many changed lines, the middle is shown as one hunk instead of a line-by-line diff. */
const MAX_DIFFED_LINES = 5_000;
const CONTEXT = 3;

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A compact unified diff of one file's change. The common head and tail are cut off first, so
 * the cost follows the size of the change, not of the file.
 */
export async function compactDiff(path: string, before: string, after: string): Promise<string> {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const start = Math.max(0, head - CONTEXT);
  const oldMiddle = a.slice(start, a.length - Math.max(0, tail - CONTEXT));
  const newMiddle = b.slice(start, b.length - Math.max(0, tail - CONTEXT));
  let body: string[];
  if (oldMiddle.length + newMiddle.length > MAX_DIFFED_LINES) {
    body = [
      `@@ -${start + 1},${oldMiddle.length} +${start + 1},${newMiddle.length} @@`,
      ...oldMiddle.map((l) => `-${l}`),
      ...newMiddle.map((l) => `+${l}`),
    ];
  } else {
    const { structuredPatch } = await import('diff');
    const patch = structuredPatch(
      path,
      path,
      `${oldMiddle.join('\n')}\n`,
      `${newMiddle.join('\n')}\n`,
      '',
      '',
      {
        context: CONTEXT,
      },
    );
    body = patch.hunks.flatMap((h) => [
      `@@ -${h.oldStart + start},${h.oldLines} +${h.newStart + start},${h.newLines} @@`,
      ...h.lines.filter((l) => !l.startsWith('\\')),
    ]);
  }
  const shown = body.slice(0, MAX_DIFF_LINES);
  if (body.length > MAX_DIFF_LINES) shown.push(`… ${body.length - MAX_DIFF_LINES} more diff lines`);
  return [`--- ${path}`, `+++ ${path}`, ...shown].join('\n');
}
