import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/config/builtin_tool_names.js';
import { builtinTools } from '../../src/tools/index.js';

describe('ToolName', () => {
  it('lists exactly the built-in tools (after a change: npm run build && node scripts/tool-names.mjs)', () => {
    const names = [...new Set(builtinTools().map((tool) => tool.name))].sort();
    expect([...BUILTIN_TOOL_NAMES]).toEqual(names);
  });

  it("is declared by the coordinator's tools themselves", () => {
    const kept = builtinTools()
      .filter((tool) => tool.availability.coordinator)
      .map((tool) => tool.name)
      .sort();
    expect(kept).toEqual(['send_message', 'structured_output', 'task_stop', 'use_subagent']);
  });
});
