/**
 * The words of a command's arguments for `$1`…`$9`: split at white space, with "double" or
 * 'single' quotes keeping a phrase together (the quotes themselves dropped).
 */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3]);
  return words;
}

/** `text` as one shell word that the shell takes literally: no expansion, no substitution, no operator. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
