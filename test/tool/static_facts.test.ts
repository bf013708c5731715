import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../../src/tool/build_tool.js';
import { findTool } from '../../src/tool/pool.js';
import { staticFacts } from '../../src/tool/static_facts.js';
import { builtinTools } from '../../src/tools/index.js';

const builtin = (name: string) => {
  const tool = findTool(builtinTools(), name);
  if (!tool) throw new Error(`no built-in tool ${name}`);
  return tool;
};

describe('staticFacts', () => {
  it('gives the facts of a tool that holds them for every input', () => {
    expect(staticFacts(builtin('read_file'))).toEqual({
      readOnly: true,
      concurrencySafe: true,
      destructive: false,
    });
  });

  it("says 'dynamic' for a fact the tool declares to depend on its input", () => {
    const facts = staticFacts(builtin('execute_command'));
    expect(facts.readOnly).toBe('dynamic');
    expect(facts.concurrencySafe).toBe('dynamic');
  });

  it("says 'unknown' when asking without an input fails", () => {
    const picky = buildTool({
      name: 'picky',
      inputSchema: z.object({ path: z.string() }),
      description: 'Reads input it needs to answer.',
      availability: { profiles: ['standard'] },
      kind: 'read',
      isReadOnly: (input) => input.path.startsWith('/'),
      async call() {
        return { text: 'ok' };
      },
    });
    expect(staticFacts(picky).readOnly).toBe('unknown');
  });
});
