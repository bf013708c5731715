// After the build: counts the tokens of every built-in tool definition once, for `lathe tools`.
import { writeFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { definitionForModel } from '../dist/tool/definition.js';
import { definitionHash } from '../dist/tool/token_count.js';
import { builtinTools } from '../dist/tools/index.js';

const counts = {};
for (const tool of builtinTools()) {
  for (const profile of ['standard', 'lite', 'simple']) {
    const text = JSON.stringify(definitionForModel(tool, profile));
    counts[definitionHash(text)] = countTokens(text);
  }
}
writeFileSync(new URL('../dist/token-counts.json', import.meta.url), `${JSON.stringify(counts)}\n`);
