// The size of a first request: system prompt plus tool definitions, per profile, in o200k tokens.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { environmentDetails } from '../src/agent/environment.js';
import { systemPrompt } from '../src/agent/system_prompt.js';
import type { Profile } from '../src/config/types.js';
import { createRuntime } from '../src/runtime/create_runtime.js';
import { definitionForModel } from '../src/tool/definition.js';

const TARGETS: Record<Profile, number | undefined> = { standard: 4_500, lite: 2_500, simple: undefined };

export async function benchPromptTokens(): Promise<Array<Record<string, string | number>>> {
  const cwd = mkdtempSync(join(tmpdir(), 'lathe-bench-prompt-'));
  const rows: Array<Record<string, string | number>> = [];
  for (const profile of ['standard', 'lite', 'simple'] as const) {
    const runtime = createRuntime({
      cwd,
      profile,
      documentsRoot: mkdtempSync(join(tmpdir(), 'lathe-h-')),
      env: {},
    });
    const system = systemPrompt({
      profile,
      mode: 'act',
      environment: await environmentDetails(cwd),
      agentsFiles: [],
    });
    // What the model is given: deferred tools not loaded yet are only named, in tool_search's definition.
    const tools = runtime.definedTools.map((t) => JSON.stringify(definitionForModel(t, profile)));
    const systemTokens = countTokens(system);
    const toolTokens = tools.reduce((sum, t) => sum + countTokens(t), 0);
    const total = systemTokens + toolTokens;
    const target = TARGETS[profile];
    rows.push({
      profile,
      tools: runtime.pool.length,
      defined: runtime.definedTools.length,
      'system tokens': systemTokens,
      'tool tokens': toolTokens,
      'first request': total,
      target: target === undefined ? '' : total < target ? `ok (< ${target})` : `OVER ${target}`,
    });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { printTable } = await import('./stats.js');
  printTable('first request size (o200k tokens)', await benchPromptTokens());
}
