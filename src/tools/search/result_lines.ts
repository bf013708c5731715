export type OutputMode = 'content' | 'files_with_matches' | 'count';

/**
 * Rewrites ripgrep's result lines for the model: the lines of files `keep` refuses are left out
 * and each path is shown as `show` says. Content and count lines come with `--null` (`path\0rest`,
 * so any file name is told apart) and leave as ripgrep's usual `path:12:text`, `path-12-text`
 * (context) and `path:3` (count); files_with_matches lines are bare paths.
 */
export function resultLineFilter(
  mode: OutputMode,
  keep: (path: string) => boolean,
  show: (path: string) => string,
): (line: string) => string | undefined {
  if (mode === 'files_with_matches') return (line) => (keep(line) ? show(line) : undefined);
  // A `--` between context groups is held until groups on both sides of it are known to be kept.
  let separator = false;
  let shownAny = false;
  return (line) => {
    const nul = line.indexOf('\0');
    if (nul < 0) {
      separator = true;
      return undefined;
    }
    const path = line.slice(0, nul);
    const rest = line.slice(nul + 1);
    const held = separator;
    separator = false;
    if (!keep(path)) return undefined;
    const shown = `${show(path)}${mode === 'content' && /^\d+-/.test(rest) ? '-' : ':'}${rest}`;
    const after = held && shownAny;
    shownAny = true;
    return after ? `--\n${shown}` : shown;
  };
}
