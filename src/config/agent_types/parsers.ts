import { createRequire } from 'node:module';

/**
 * The YAML and TOML parsers, loaded the first time an agent file is read: most folders have
 * none, and lathe starts without parsing them (together about 130 KB of code).
 */
const load = createRequire(import.meta.url);

export function parseYaml(text: string): unknown {
  const { parse } = load('yaml') as typeof import('yaml');
  return parse(text, { uniqueKeys: true, strict: true });
}

export function parseToml(text: string): Record<string, unknown> {
  const { parse } = load('smol-toml') as typeof import('smol-toml');
  return parse(text);
}
