import { createRequire } from 'node:module';

/**
 * The YAML and TOML parsers, loaded the first time an agent file is read: most folders have
 * none, and lathe starts without parsing them (together about 130 KB of code).
 */
const load = createRequire(import.meta.url);

let yaml: typeof import('yaml') | undefined;

export function parseYaml(text: string): unknown {
  // Kept once loaded: resolving the module again costs more than parsing a small frontmatter.
  yaml ??= load('yaml') as typeof import('yaml');
  return yaml.parse(text, { uniqueKeys: true, strict: true });
}

export function parseToml(text: string): Record<string, unknown> {
  const { parse } = load('smol-toml') as typeof import('smol-toml');
  return parse(text);
}
