/** One SEARCH/REPLACE block, LF-separated, without a trailing newline. */
export function searchReplaceBlock(
  search: string[],
  replace: string[],
  open = '------- SEARCH',
  close = '+++++++ REPLACE',
): string {
  return [open, ...search, '=======', ...replace, close].join('\n');
}
