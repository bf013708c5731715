/**
 * Explains a failed search: shows the lines that were expected next to the region of the file
 * that resembles them most, so the model can correct its next attempt instead of guessing.
 */

const MAX_SHOWN_LINES = 40;

export interface ClosestRegion {
  /** 0-based first line of the region. */
  start: number;
  /** 0-based line after the region. */
  end: number;
  /** How many non-blank expected lines appear (whitespace-trimmed) in the region. */
  common: number;
}

/**
 * The window of `expected.length` lines (at or after `from`) sharing the most non-blank lines
 * with `expected`, compared whitespace-trimmed and in any order. One sliding pass keeps it
 * linear in the file size. Null when no line is shared at all.
 */
export function findClosestRegion(
  lines: readonly string[],
  expected: readonly string[],
  from = 0,
): ClosestRegion | null {
  const wanted = new Map<string, number>();
  for (const line of expected) {
    const key = line.trim();
    if (key !== '') wanted.set(key, (wanted.get(key) ?? 0) + 1);
  }
  if (wanted.size === 0 || from >= lines.length) return null;

  const width = Math.max(1, Math.min(expected.length, lines.length - from));
  const seen = new Map<string, number>();
  let common = 0;
  const enter = (line: string): void => {
    const key = line.trim();
    const limit = wanted.get(key);
    if (limit === undefined) return;
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count <= limit) common++;
  };
  const leave = (line: string): void => {
    const key = line.trim();
    const limit = wanted.get(key);
    if (limit === undefined) return;
    const count = seen.get(key) ?? 0;
    if (count <= limit) common--;
    seen.set(key, count - 1);
  };

  // On a tie, a window that opens on a shared line lines up better with what was expected.
  const opensShared = (start: number) => wanted.has(lines[start].trim());
  for (let i = from; i < from + width; i++) enter(lines[i]);
  let best: ClosestRegion = { start: from, end: from + width, common };
  let bestOpensShared = opensShared(from);
  for (let start = from + 1; start + width <= lines.length; start++) {
    leave(lines[start - 1]);
    enter(lines[start + width - 1]);
    if (common > best.common || (common === best.common && !bestOpensShared && opensShared(start))) {
      best = { start, end: start + width, common };
      bestOpensShared = opensShared(start);
    }
  }
  return best.common > 0 ? best : null;
}

/**
 * Renders the expected lines and the closest region of the file, with line numbers. When the
 * two differ only in whitespace, tabs and spaces are drawn visibly (→ and ·) in both.
 */
export function describeNearMiss(
  lines: readonly string[],
  expected: readonly string[],
  options: { from?: number; fileLabel: string },
): string {
  const region = findClosestRegion(lines, expected, options.from ?? 0);
  const regionLines = region === null ? [] : lines.slice(region.start, region.end);
  // Only the shown lines matter for how they are drawn (and this keeps the check cheap).
  const visible =
    region !== null &&
    differsOnlyInWhitespace(expected.slice(0, MAX_SHOWN_LINES), regionLines.slice(0, MAX_SHOWN_LINES));
  const show = visible ? showWhitespace : (line: string) => line;

  const out = [`Expected (${plural(expected.length, 'line')}):`];
  out.push(...numbered(expected.map(show), null));
  if (region === null) {
    out.push(`No line of it appears in ${options.fileLabel}.`);
    return out.join('\n');
  }
  const nonBlank = expected.filter((line) => line.trim() !== '').length;
  out.push(
    `Closest region of ${options.fileLabel} (lines ${region.start + 1}-${region.end}, ` +
      `${region.common} of ${nonBlank} non-blank lines in common):`,
  );
  out.push(...numbered(regionLines.map(show), region.start + 1));
  if (visible) out.push('Whitespace differs: → marks a tab and · a space.');
  return out.join('\n');
}

/** True when some line of the region equals an expected line except for its whitespace. */
function differsOnlyInWhitespace(expected: readonly string[], region: readonly string[]): boolean {
  const squeezed = region.map(withoutWhitespace);
  return expected.some((line) => {
    const key = withoutWhitespace(line);
    if (key === '') return false;
    return region.some((candidate, i) => squeezed[i].includes(key) && !candidate.includes(line));
  });
}

function withoutWhitespace(line: string): string {
  return line.replace(/\s+/g, '');
}

/** Draws leading and trailing tabs and spaces; inner whitespace is left readable. */
export function showWhitespace(line: string): string {
  const draw = (run: string) => run.replace(/\t/g, '→').replace(/ /g, '·');
  const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
  if (lead.length === line.length) return draw(line);
  const trail = /[ \t]*$/.exec(line)?.[0] ?? '';
  return draw(lead) + line.slice(lead.length, line.length - trail.length) + draw(trail);
}

function numbered(lines: readonly string[], firstNumber: number | null): string[] {
  const shown = lines.slice(0, MAX_SHOWN_LINES);
  const width = firstNumber === null ? 0 : String(firstNumber + shown.length).length;
  const out = shown.map((line, i) => {
    const label = firstNumber === null ? '' : String(firstNumber + i).padStart(width);
    return `  ${label}|${line}`;
  });
  if (lines.length > shown.length) out.push(`  ... (${lines.length - shown.length} more lines)`);
  return out;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
