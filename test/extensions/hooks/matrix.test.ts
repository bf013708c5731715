import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/runtime/create_runtime.js';
import type { ToolResult } from '../../../src/tool/types.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { closeHookedRuntimes, hookedRuntime, preToolUse, runAsChild, writeHookSettings } from './support.js';

// The hook matrix: each way a PreToolUse hook can answer or fail, against a shell command, a
// file edit, an MCP tool and a child agent's call. A call that must not run leaves no marker.

afterAll(closeHookedRuntimes);

interface Row {
  name: string;
  /** What the hook does after reading its input. */
  body: string;
  timeout?: number;
  failClosed?: boolean;
  blocks: boolean;
  /** What the model reads (blocked) or the user is told (not blocked). */
  says: RegExp;
}

const DENY_JSON = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no markers today"}}'`;

const ROWS: Row[] = [
  { name: 'deny JSON', body: DENY_JSON, blocks: true, says: /Blocked by a hook: no markers today/ },
  {
    name: 'exit 2 with stderr',
    body: 'echo "marker files are forbidden" >&2; exit 2',
    blocks: true,
    says: /Blocked by a hook: marker files are forbidden/,
  },
  {
    name: 'exit 2 without stderr',
    body: 'exit 2',
    blocks: true,
    says: /Blocked by a hook: .*exited with code 2/,
  },
  {
    name: 'exit 1',
    body: 'echo broken >&2; exit 1',
    blocks: false,
    says: /exited with code 1: broken; going on/,
  },
  {
    name: 'exit 1 with failClosed',
    body: 'echo broken >&2; exit 1',
    failClosed: true,
    blocks: true,
    says: /Blocked by a hook: .*exited with code 1: broken/,
  },
  {
    name: 'timeout',
    body: 'sleep 30',
    timeout: 1,
    blocks: false,
    says: /timed out after 1 s; its process group was killed; going on/,
  },
  {
    name: 'timeout with failClosed',
    body: 'sleep 30',
    timeout: 1,
    failClosed: true,
    blocks: true,
    says: /Blocked by a hook: .*timed out after 1 s/,
  },
  {
    name: 'malformed JSON',
    body: `echo '{"decision": '`,
    blocks: false,
    says: /printed invalid JSON .*; going on/,
  },
  {
    name: 'malformed JSON with failClosed',
    body: `echo '{"decision": '`,
    failClosed: true,
    blocks: true,
    says: /Blocked by a hook: .*printed invalid JSON/,
  },
  { name: 'crash', body: 'kill -SEGV $$', blocks: false, says: /crashed \(SIGSEGV\); going on/ },
  {
    name: 'crash with failClosed',
    body: 'kill -SEGV $$',
    failClosed: true,
    blocks: true,
    says: /Blocked by a hook: .*crashed \(SIGSEGV\)/,
  },
];

interface Column {
  name: string;
  /** Makes the call in `runtime`; the marker is the file it creates. */
  call(runtime: Runtime, marker: string): Promise<ToolResult>;
}

const COLUMNS: Column[] = [
  {
    name: 'execute_command',
    call: (runtime, marker) => runtime.runTool('execute_command', { command: `touch ${marker}` }),
  },
  {
    name: 'edit_file',
    call: (runtime, marker) =>
      runtime.runTool('edit_file', { path: marker, old_string: '', new_string: 'x\n' }),
  },
  {
    name: 'an MCP tool',
    call: (runtime, marker) => runtime.runTool('touchy__touch', { path: marker }),
  },
  {
    name: "a child agent's call",
    call: (runtime, marker) => runAsChild(runtime, 'execute_command', { command: `touch ${marker}` }),
  },
];

describe('the hook matrix: PreToolUse answers and failures × tools', () => {
  for (const row of ROWS) {
    // A tool that runs runs its command in the sandbox; a blocked one never does.
    (row.blocks ? it : testNeeds('bwrap'))(
      `${row.name}: ${row.blocks ? 'blocks every tool, which never runs' : 'warns the user and the tool runs'}`,
      async () => {
        const workspace = tempDir('lathe-hooks-');
        const seen = join(workspace, 'seen.jsonl');
        writeHookSettings(
          workspace,
          preToolUse('execute_command|edit_file|mcp__touchy__touch', {
            command: `cat >> ${seen}; ${row.body}`,
            ...(row.timeout ? { timeout: row.timeout } : {}),
            ...(row.failClosed ? { failClosed: true } : {}),
          }),
        );
        const { runtime, lines } = await hookedRuntime(workspace, { touchServer: true });
        for (const [i, column] of COLUMNS.entries()) {
          const marker = join(workspace, `marker-${i}`);
          const result = await column.call(runtime, marker);
          if (row.blocks) {
            expect(result.isError, column.name).toBe(true);
            expect(result.text, column.name).toMatch(row.says);
            expect(existsSync(marker), `${column.name} ran`).toBe(false);
          } else {
            expect(result.isError, `${column.name}: ${result.text}`).toBe(false);
            expect(existsSync(marker), `${column.name} did not run`).toBe(true);
            expect(lines.at(-1), column.name).toMatch(row.says);
          }
        }
        // The hook saw each call: the tool's name and input, and for the child, whose call it was.
        const inputs = readFileSync(seen, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line));
        expect(inputs.map((input) => input.tool_name)).toEqual([
          'execute_command',
          'edit_file',
          'touchy__touch',
          'execute_command',
        ]);
        expect(inputs[0]).toMatchObject({ hook_event_name: 'PreToolUse', cwd: workspace });
        expect(inputs[0].tool_input.command).toBe(`touch ${join(workspace, 'marker-0')}`);
        expect(inputs[3]).toMatchObject({ agent_id: 'child-1', agent_type: 'general' });
        expect(inputs[0].agent_id).toBeUndefined();
      },
    );
  }
});
