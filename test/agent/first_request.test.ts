import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

/** The first request's budget (o200k tokens of the whole body), with the default pool. */
const FIRST_REQUEST_TOKENS = 4_500;

const NOTEBOOK =
  '{"cells":[{"cell_type":"code","source":["1"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4}\n';

describe('the first model request of lathe -p', () => {
  it(`stays within ${FIRST_REQUEST_TOKENS} tokens with the default pool`, async () => {
    const r = await runHeadless(writeTree({ 'a.ts': 'export const a = 1;\n' }), [{ text: 'Hello.' }]);
    expect(r.code, r.stderr).toBe(0);
    const [first] = r.requests;
    const tokens = countTokens(JSON.stringify(first.body));
    expect(tokens).toBeLessThanOrEqual(FIRST_REQUEST_TOKENS);
    // Every default tool stays callable: the deferred ones through tool_search.
    expect(first.toolNames).toContain('tool_search');
    expect(first.toolNames).not.toContain('notebook_edit');
  });

  it('loads a deferred tool with tool_search, then runs it', async () => {
    const dir = writeTree({ 'n.ipynb': NOTEBOOK });
    const r = await runHeadless(
      dir,
      [
        { toolCalls: [{ name: 'tool_search', input: { query: 'select:notebook_edit' } }] },
        { toolCalls: [{ name: 'read_file', input: { path: 'n.ipynb' } }] },
        {
          toolCalls: [
            {
              name: 'notebook_edit',
              input: { path: 'n.ipynb', edit_mode: 'replace', cell_number: 1, new_source: '2' },
            },
          ],
        },
        { toolCalls: [{ name: 'attempt_completion', input: { result: 'Edited the cell.' } }] },
      ],
      ['--approve', 'edit'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ outcome: 'completed', result: 'Edited the cell.' });
    expect(r.requests[1].toolResults[0].content).toContain('## notebook_edit (loaded)');
    expect(r.requests[1].toolNames).toContain('notebook_edit');
    expect(r.requests[3].toolResults[0].isError).toBeFalsy();
    expect(JSON.parse(readFileSync(join(dir, 'n.ipynb'), 'utf8')).cells[0].source).toEqual(['2']);
  });
});
