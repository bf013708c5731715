import { createHash } from 'node:crypto';
import { buildFile } from './build_file.js';

/**
 * Token counts of tool definitions (o200k, gpt-tokenizer). Loading the tokenizer costs about
 * 150 ms, so the build counts every built-in definition once and stores the counts by hash;
 * only a definition the build did not see (an MCP tool) loads the tokenizer.
 */
const precomputed = buildFile<Record<string, number>>('token-counts.json');

export function definitionHash(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export async function countTokens(text: string): Promise<number> {
  const known = precomputed()[definitionHash(text)];
  if (known !== undefined) return known;
  const { countTokens: count } = await import('gpt-tokenizer/encoding/o200k_base');
  return count(text);
}
