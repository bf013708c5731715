import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SdkMessage } from '../../src/sdk/messages.js';
import { query } from '../../src/sdk/query.js';
import { closeSdkServers, readAll, sdkSetup } from './support.js';

afterEach(closeSdkServers);

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] };
/** Edits need the file read first. */
const read = { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] };
const edit = {
  toolCalls: [{ name: 'edit_file', input: { path: 'notes.txt', old_string: 'old', new_string: 'new' } }],
};

/** The approval messages and the tool results, in the order they came. */
function approvalTrail(messages: SdkMessage[]): SdkMessage[] {
  return messages.filter((m) => ['approval_request', 'approval_answer', 'tool_result'].includes(m.type));
}

describe('approval messages', () => {
  it("show the ask, then canUseTool's denial with its reason, before the refused call's result", async () => {
    const { options, cwd } = await sdkSetup([edit, done], { 'notes.txt': 'old text\n' });
    const messages = await readAll(
      query({
        prompt: 'update the notes',
        options: { ...options, canUseTool: () => ({ behavior: 'deny', message: 'edits wait for review' }) },
      }),
    );
    const [asked, answered, result] = approvalTrail(messages);
    expect(asked).toMatchObject({
      type: 'approval_request',
      tool: 'edit_file',
      reason: expect.stringMatching(/edit_file needs approval \(category edit\)/),
      category: 'edit',
    });
    expect((asked as { input_summary: string }).input_summary).toContain('notes.txt');
    expect(answered).toEqual({
      type: 'approval_answer',
      id: (asked as { id: string }).id,
      tool: 'edit_file',
      answer: 'deny',
      by: 'canUseTool',
      reason: 'edits wait for review',
    });
    expect(result).toMatchObject({ type: 'tool_result', id: (asked as { id: string }).id, is_error: true });
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('old text\n');
  });

  it('say that canUseTool allowed a call with an input of its own', async () => {
    const { options } = await sdkSetup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'echo one > out.txt' } }] },
      done,
    ]);
    const messages = await readAll(
      query({
        prompt: 'write out.txt',
        options: {
          ...options,
          canUseTool: (_tool, input) => ({
            behavior: 'allow',
            updatedInput: { ...(input as object), command: 'echo two > out.txt' },
          }),
        },
      }),
    );
    const [asked, answered] = approvalTrail(messages);
    expect(asked).toMatchObject({ type: 'approval_request', tool: 'execute_command' });
    expect((asked as { input_summary: string }).input_summary).toContain('echo one > out.txt');
    expect(answered).toMatchObject({ answer: 'allow', by: 'canUseTool', input_changed: true });
  });

  it('say a rule refused the ask when no one is there to answer it', async () => {
    const { options } = await sdkSetup([edit, done], { 'notes.txt': 'old text\n' });
    const messages = await readAll(query({ prompt: 'update the notes', options }));
    const [asked, answered] = approvalTrail(messages);
    expect(asked).toMatchObject({ type: 'approval_request', tool: 'edit_file', category: 'edit' });
    expect(answered).toMatchObject({
      type: 'approval_answer',
      answer: 'deny',
      by: 'rule',
      reason: 'no one is present to approve it',
    });
  });

  it('say a PermissionRequest hook answered in the place of canUseTool', async () => {
    const { options, cwd } = await sdkSetup([read, edit, done], { 'notes.txt': 'old text\n' });
    const asked: string[] = [];
    const messages = await readAll(
      query({
        prompt: 'update the notes',
        options: {
          ...options,
          canUseTool: (tool) => {
            asked.push(tool);
            return { behavior: 'deny', message: 'no' };
          },
          hooks: {
            PermissionRequest: [
              { hooks: [() => ({ hookSpecificOutput: { decision: { behavior: 'allow' } } })] },
            ],
          },
        },
      }),
    );
    const [, , answered, result] = approvalTrail(messages);
    expect(answered).toMatchObject({ type: 'approval_answer', answer: 'allow', by: 'hook' });
    expect(result).toMatchObject({ type: 'tool_result', is_error: false });
    expect(asked).toEqual([]);
    expect(readFileSync(join(cwd, 'notes.txt'), 'utf8')).toBe('new text\n');
  });
});
