// After the build: what every built-in tool definition costs to compute at run time, computed once.
// - dist/tool-schemas.json: the JSON Schema of each lazy input schema, so a run builds no zod
//   schema to describe its tools;
// - dist/token-counts.json: the tokens of each definition, for `lathe tools`.
import { rmSync, writeFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

// The last build's schemas must not stand in for this build's: they are derived afresh.
rmSync(new URL('../dist/tool-schemas.json', import.meta.url), { force: true });
const { definitionForModel, deriveJsonSchema } = await import('../dist/tool/definition.js');
const { isLazySchema } = await import('../dist/tool/lazy_schema.js');
const { definitionHash } = await import('../dist/tool/token_count.js');
const { builtinTools } = await import('../dist/tools/index.js');

const schemas = {};
const counts = {};
for (const tool of builtinTools()) {
  if (isLazySchema(tool.inputSchema)) schemas[tool.name] = deriveJsonSchema(tool);
  for (const profile of ['standard', 'lite', 'simple']) {
    const text = JSON.stringify(definitionForModel(tool, profile));
    counts[definitionHash(text)] = countTokens(text);
  }
}
writeFileSync(new URL('../dist/tool-schemas.json', import.meta.url), `${JSON.stringify(schemas)}\n`);
writeFileSync(new URL('../dist/token-counts.json', import.meta.url), `${JSON.stringify(counts)}\n`);
