import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionQuestion } from '../../src/sdk/options.js';
import { query } from '../../src/sdk/query.js';
import { tool } from '../../src/sdk/tool.js';
import { closeSdkServers, readAll, results, sdkSetup } from './support.js';

afterEach(closeSdkServers);

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] };

describe("the program's canUseTool", () => {
  it('denies an edit: the file stays as it was and the model reads why', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'notes.txt', old_string: 'old', new_string: 'new' } },
          ],
        },
        done,
      ],
      { 'notes.txt': 'old text\n' },
    );
    const asked: Array<{ tool: string; input: unknown; question: PermissionQuestion }> = [];
    const messages = await readAll(
      query({
        prompt: 'update the notes',
        options: {
          ...options,
          canUseTool: (tool, input, question) => {
            asked.push({ tool, input, question });
            return { behavior: 'deny', message: 'edits wait for review' };
          },
        },
      }),
    );
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('old text\n');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'edit_file', input: { path: 'notes.txt' } });
    expect(asked[0].question.reason).toMatch(/edit_file needs approval \(category edit\)/);
    expect(modelRequests()[2].toolResults[0].content).toContain('edits wait for review');
    expect(results(messages)[0].permission_denials).toMatchObject([
      { tool: 'edit_file', reason: 'declined: edits wait for review' },
    ]);
  });

  it("rewrites a command's input: the changed command runs in its place", async () => {
    const { options, cwd, modelRequests } = await sdkSetup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'echo one > out.txt' } }] },
      done,
    ]);
    await query({
      prompt: 'write out.txt',
      options: {
        ...options,
        canUseTool: (_tool, input) => ({
          behavior: 'allow',
          updatedInput: { ...(input as object), command: 'echo two > out.txt' },
        }),
      },
    }).result;
    expect(readFileSync(join(cwd, 'out.txt'), 'utf8')).toBe('two\n');
    expect(modelRequests()[1].toolResults[0].isError).toBeFalsy();
  });

  it('cannot rewrite a call into one a deny rule refuses', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [{ toolCalls: [{ name: 'execute_command', input: { command: 'echo one > out.txt' } }] }, done],
      { 'keep.txt': 'kept\n' },
    );
    await query({
      prompt: 'x',
      options: {
        ...options,
        disallowedTools: ['execute_command(rm *)'],
        canUseTool: () => ({ behavior: 'allow', updatedInput: { command: 'rm keep.txt' } }),
      },
    }).result;
    expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(modelRequests()[1].toolResults[0].content).toMatch(/denied by rule execute_command\(rm \*\)/);
  });
});

describe("the program's hooks, servers and tools", () => {
  it('runs a hook function at its event: it sees the call and blocks it', async () => {
    const { options, modelRequests } = await sdkSetup(
      [{ toolCalls: [{ name: 'read_file', input: { path: 'secret.txt' } }] }, done],
      { 'secret.txt': 'hush\n' },
    );
    const inputs: unknown[] = [];
    await query({
      prompt: 'read the secret',
      options: {
        ...options,
        hooks: {
          PreToolUse: [
            {
              matcher: 'read_file',
              hooks: [
                (input) => {
                  inputs.push(input.tool_input);
                  return { decision: 'block', reason: 'no reading secrets' };
                },
              ],
            },
          ],
        },
      },
    }).result;
    expect(inputs).toEqual([{ path: 'secret.txt' }]);
    const result = modelRequests()[1].toolResults[0];
    expect(result.content).toContain('Blocked by a hook: no reading secrets');
    expect(result.content).not.toContain('hush');
  });

  it('reports a hook function that throws or hangs, and goes on without it', async () => {
    const { options, lines, modelRequests } = await sdkSetup(
      [{ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }, done],
      { 'a.txt': 'alpha\n' },
    );
    await query({
      prompt: 'read a.txt',
      options: {
        ...options,
        hooks: {
          PreToolUse: [
            {
              hooks: [
                function boom() {
                  throw new Error('kaboom');
                },
              ],
            },
            {
              timeout: 0.2,
              hooks: [
                function hang() {
                  return new Promise(() => undefined);
                },
              ],
            },
          ],
        },
      },
    }).result;
    expect(lines.join('\n')).toContain(
      'hook `function boom` (PreToolUse read_file) exited with code 1: kaboom; going on without it',
    );
    expect(lines.join('\n')).toContain('hook `function hang` (PreToolUse read_file) timed out after 0.2 s');
    expect(modelRequests()[1].toolResults[0].content).toContain('alpha');
  });

  it("calls a tool of an in-process MCP server, and the model reads the server's answer", async () => {
    const calc = new McpServer({ name: 'calc', version: '1.0.0' });
    calc.registerTool(
      'add',
      { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() } },
      async ({ a, b }) => ({ content: [{ type: 'text', text: `the sum is ${a + b}` }] }),
    );
    const { options, modelRequests } = await sdkSetup([
      { toolCalls: [{ name: 'calc__add', input: { a: 2, b: 3 } }] },
      done,
    ]);
    const messages = await readAll(
      query({
        prompt: 'add 2 and 3',
        options: { ...options, mcpServers: { calc }, allowedTools: ['calc__add'] },
      }),
    );
    expect(messages[0]).toMatchObject({ mcp_servers: [{ name: 'calc', status: 'connected' }] });
    expect(modelRequests()[0].toolNames).toContain('calc__add');
    expect(modelRequests()[1].toolResults[0].content).toContain('the sum is 5');
  });

  it("calls the program's own tool, and the model reads its result", async () => {
    const lookups: string[] = [];
    const lookupOrder = tool(
      'lookup_order',
      'Looks up an order by its id',
      { id: z.string() },
      async ({ id }) => {
        lookups.push(id);
        return `order ${id}: shipped on Monday`;
      },
      { kind: 'read', readOnly: true },
    );
    const { options, modelRequests } = await sdkSetup([
      { toolCalls: [{ name: 'lookup_order', input: { id: '42' } }] },
      done,
    ]);
    const messages = await readAll(
      query({ prompt: 'where is order 42?', options: { ...options, tools: [lookupOrder] } }),
    );
    expect(lookups).toEqual(['42']);
    expect(messages[0]).toMatchObject({ type: 'system' });
    expect((messages[0] as { tools: string[] }).tools.at(-1)).toBe('lookup_order');
    expect(modelRequests()[1].toolResults[0].content).toBe('order 42: shipped on Monday');
  });

  it("checks a program tool's input against its schema before the handler runs", async () => {
    let called = false;
    const strict = tool('count', 'Counts', z.object({ n: z.number().int() }), () => {
      called = true;
      return 'counted';
    });
    const { options, modelRequests } = await sdkSetup([
      { toolCalls: [{ name: 'count', input: { n: 'many' } }] },
      done,
    ]);
    await query({ prompt: 'count', options: { ...options, tools: [strict] } }).result;
    expect(called).toBe(false);
    expect(modelRequests()[1].toolResults[0].content).toMatch(/Invalid arguments for count:\n- n:/);
  });

  it('refuses a tool that takes the name of a built-in one', async () => {
    const { options } = await sdkSetup([]);
    const clash = tool('read_file', 'Mine', {}, () => 'x');
    await expect(query({ prompt: 'x', options: { ...options, tools: [clash] } }).result).rejects.toThrow(
      'tools: "read_file" is the name of a built-in tool',
    );
  });
});
