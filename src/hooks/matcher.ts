/** A compiled matcher: which names (a tool's, an agent type, a source) it covers. */
export interface Matcher {
  matches(names: readonly string[]): boolean;
  /** Set when the matcher is no valid regular expression (it then matches its exact text). */
  problem?: string;
}

/**
 * A hook's matcher: empty or `*` is every name; otherwise a regular expression over the whole
 * name (`execute_command`, `edit_file|write_to_file`, `mcp__github__.*`), case-sensitive as in
 * Claude Code. One that does not compile matches its exact text only, and says so.
 */
export function compileMatcher(matcher: string): Matcher {
  const text = matcher.trim();
  if (text === '' || text === '*') return { matches: () => true };
  try {
    const pattern = new RegExp(`^(?:${text})$`);
    return { matches: (names) => names.some((name) => pattern.test(name)) };
  } catch (error) {
    return {
      matches: (names) => names.includes(text),
      problem: `matcher "${text}" is no valid regular expression (${(error as Error).message}); it matches that exact name only`,
    };
  }
}
