import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, type RuntimeOptions } from '../../src/runtime/create_runtime.js';
import { deferredLine, firstSentence } from '../../src/tool/deferred.js';
import { builtinTools } from '../../src/tools/index.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

const NOTEBOOK =
  '{"cells":[{"cell_type":"code","source":["1"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4}\n';

function runtime(options: RuntimeOptions = {}) {
  return createRuntime({
    cwd: writeTree({ 'n.ipynb': NOTEBOOK }),
    documentsRoot: tempDir(),
    env: { NODE_ENV: 'test' },
    ...options,
  });
}

const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
const searchDescription = (r: ReturnType<typeof runtime>) =>
  r.pool.find((t) => t.name === 'tool_search')?.description ?? '';

describe('deferred built-in tools', () => {
  it('keep one line each in tool_search’s definition, and no definition of their own', () => {
    const r = runtime();
    const deferred = r.pool.filter((t) => t.deferred);
    expect(deferred.length).toBeGreaterThan(5);
    for (const tool of deferred) {
      expect(searchDescription(r)).toContain(`\n${deferredLine(tool)}`);
      expect(names(r.definedTools)).not.toContain(tool.name);
    }
    // The core tools are always given.
    for (const core of ['read_file', 'edit_file', 'search_files', 'execute_command', 'attempt_completion'])
      expect(names(r.definedTools)).toContain(core);
  });

  it('have a first sentence that stands alone as their line', () => {
    const every = builtinTools().filter((t) => t.deferred);
    for (const tool of every) {
      const line = firstSentence(tool.description);
      expect(line, tool.name).toMatch(/[.!?]$/);
      expect(line.length, tool.name).toBeLessThanOrEqual(200);
    }
  });

  it('are loaded by tool_search select: their definitions are given from then on', async () => {
    const r = runtime();
    const result = await r.runTool('tool_search', { query: 'select:notebook_edit' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('## notebook_edit (loaded)');
    expect(result.text).toContain('Input schema: {');
    expect(names(r.definedTools)).toContain('notebook_edit');
    expect(searchDescription(r)).not.toContain('- notebook_edit:');
    expect((await r.runTool('tool_search', { query: 'select:notebook_edit' })).text).toContain(
      'These tools were already loaded.',
    );
  });

  it('are found by keyword among the deferred tools', async () => {
    const r = runtime();
    const result = await r.runTool('tool_search', { query: 'jupyter notebook cell', max_results: 1 });
    expect(result.text).toMatch(/^## notebook_edit \(loaded\)/);
  });

  it('run when called by name with valid input, before any search', async () => {
    const r = runtime({ yolo: true });
    await r.runTool('read_file', { path: 'n.ipynb' });
    const result = await r.runTool('notebook_edit', {
      path: 'n.ipynb',
      edit_mode: 'replace',
      cell_number: 1,
      new_source: '2',
    });
    expect(result.isError, result.text).toBe(false);
    expect(JSON.parse(readFileSync(join(r.cwd, 'n.ipynb'), 'utf8')).cells[0].source).toEqual(['2']);
  });

  it('load their definition when called by name with input that does not match it', async () => {
    const r = runtime();
    const result = await r.runTool('notebook_edit', { file: 'n.ipynb' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Invalid arguments for notebook_edit:/);
    expect(result.text).toContain(
      'notebook_edit is a deferred tool whose definition you did not have: it is loaded now',
    );
    expect(names(r.definedTools)).toContain('notebook_edit');
  });

  it('are all given in full where tool_search is not offered (a deny rule, the lite profile)', () => {
    const denied = runtime({ settings: { permissions: { deny: ['tool_search'] } } });
    expect(names(denied.pool)).not.toContain('tool_search');
    expect(names(denied.definedTools)).toEqual(names(denied.pool));
    expect(names(denied.definedTools)).toContain('notebook_edit');
    const lite = runtime({ profile: 'lite' });
    expect(names(lite.definedTools)).toEqual(names(lite.pool));
    expect(names(lite.pool)).toContain('kill_command');
    // A coordinator keeps only the tools it delegates with, every one given in full.
    const lead = runtime({ features: ['coordinator'] });
    expect(names(lead.pool)).toContain('send_message');
    expect(names(lead.definedTools)).toEqual(names(lead.pool));
  });
});
