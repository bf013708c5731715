// After the build: writes src/config/builtin_tool_names.ts, the names of the built-in tools, so a
// place in the code that names one (`ToolName`) fails the typecheck on a typo. Run it after adding,
// removing or renaming a tool: `npm run build && node scripts/tool-names.mjs`
// (test/tool/tool_names.test.ts says when it is due).
import { writeFileSync } from 'node:fs';

const { builtinTools } = await import('../dist/tools/index.js');
const names = [...new Set(builtinTools().map((tool) => tool.name))].sort();
const text = `// Written by scripts/tool-names.mjs from the built-in tools (src/tools/index.ts); do not edit.

/** The name of every built-in tool. */
export const BUILTIN_TOOL_NAMES = [
${names.map((name) => `  '${name}',`).join('\n')}
] as const;

/** A built-in tool's name. */
export type ToolName = (typeof BUILTIN_TOOL_NAMES)[number];
`;
writeFileSync(new URL('../src/config/builtin_tool_names.ts', import.meta.url), text);
