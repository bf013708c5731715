/** `${NAME}` or `${NAME:-default}`; `$${…}` escapes a literal `${…}`. */
const VARIABLE = /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${NAME}` and `${NAME:-default}` from the environment, as the other popular agents do
 * in their MCP files, so a key can stay in the environment rather than in a committed file.
 * Names that are unset and have no default are added to `missing` and expand to nothing.
 */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, missing: Set<string>): string {
  return text.replace(VARIABLE, (whole, escaped: string | undefined, name: string, fallback?: string) => {
    if (escaped) return whole.slice(1);
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}
