import { describe, expect, it } from 'vitest';
import { toolChoice } from '../../../src/agent/subagents/tool_choice.js';
import type { AgentType } from '../../../src/config/agent_types/index.js';
import { builtinTools } from '../../../src/tools/index.js';

const type = (fields: Partial<AgentType>): AgentType => ({
  name: 't',
  description: 'd',
  source: 'test',
  origin: 'lathe',
  ...fields,
});
const kept = (t: AgentType) =>
  builtinTools()
    .filter(toolChoice(t))
    .map((tool) => tool.name);

describe("a child type's tools", () => {
  it('keeps only the tools that change nothing for a type in Plan mode, as for a read-only one', () => {
    const plan = kept(type({ mode: 'plan' }));
    expect(plan).toContain('read_file');
    for (const name of ['write_to_file', 'execute_command', 'apply_patch']) expect(plan).not.toContain(name);
    expect(plan).toEqual(kept(type({ readOnly: true })));
  });

  it("keeps a type's `tools` less its `disallowedTools`", () => {
    expect(kept(type({ tools: ['read_file', 'glob', 'write_to_file'], disallowedTools: ['glob'] }))).toEqual([
      'read_file',
      'write_to_file',
    ]);
  });
});
