import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { closeHookedRuntimes, hookedRuntime, preToolUse, writeHookSettings } from './support.js';

afterEach(closeHookedRuntimes);

const json = (value: unknown) => `echo '${JSON.stringify(value)}'`;
const pre = (fields: Record<string, unknown>) =>
  json({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...fields } });

describe('hooks in the call pipeline', () => {
  testNeeds('bwrap')(
    'updatedInput changes the command that runs, and permissions judge the new one',
    async () => {
      const workspace = tempDir('lathe-hooks-');
      writeHookSettings(
        workspace,
        preToolUse('Bash', { command: pre({ updatedInput: { command: 'touch changed' } }) }),
      );
      const { runtime } = await hookedRuntime(workspace);
      const result = await runtime.runTool('execute_command', { command: 'touch original' });
      expect(result.isError, result.text).toBe(false);
      expect(existsSync(join(workspace, 'changed'))).toBe(true);
      expect(existsSync(join(workspace, 'original'))).toBe(false);
    },
  );

  it('an updatedInput a deny rule forbids is refused like the model’s own call', async () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(
      workspace,
      preToolUse('execute_command', { command: pre({ updatedInput: { command: 'rm -rf data' } }) }),
      { permissions: { deny: ['execute_command(rm *)'] } },
    );
    mkdirSync(join(workspace, 'data'));
    const { runtime } = await hookedRuntime(workspace);
    const result = await runtime.runTool('execute_command', { command: 'ls' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Not run: /);
    expect(existsSync(join(workspace, 'data'))).toBe(true);
  });

  testNeeds('bwrap')('allow answers an ask no one is there for; a deny rule still stands', async () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(
      workspace,
      preToolUse('execute_command', { command: pre({ permissionDecision: 'allow' }) }),
      {
        permissions: { deny: ['execute_command(rm *)'] },
      },
    );
    writeFileSync(join(workspace, 'keep'), '');
    const { runtime } = await hookedRuntime(workspace, { yolo: false });
    const ran = await runtime.runTool('execute_command', { command: 'touch made' });
    expect(ran.isError, ran.text).toBe(false);
    expect(existsSync(join(workspace, 'made'))).toBe(true);
    const denied = await runtime.runTool('execute_command', { command: 'rm keep' });
    expect(denied.isError).toBe(true);
    expect(existsSync(join(workspace, 'keep'))).toBe(true);
  });

  it('ask makes a call rules allow ask, which no one answers in a headless run', async () => {
    const workspace = tempDir('lathe-hooks-');
    writeFileSync(join(workspace, 'notes.txt'), 'secret\n');
    writeHookSettings(workspace, preToolUse('read_file', { command: pre({ permissionDecision: 'ask' }) }));
    const { runtime } = await hookedRuntime(workspace, { yolo: false });
    const result = await runtime.runTool('read_file', { path: 'notes.txt' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/a hook asks for approval/);
    expect(result.text).not.toContain('secret');
  });

  it('continue: false does not run the call and gives the stop reason', async () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(
      workspace,
      preToolUse('', { command: json({ continue: false, stopReason: 'freeze in effect' }) }),
    );
    const { runtime } = await hookedRuntime(workspace);
    const result = await runtime.runTool('execute_command', { command: 'touch marker' });
    expect(result).toMatchObject({
      isError: true,
      text: 'Not run: a hook stopped the run: freeze in effect',
    });
    expect(existsSync(join(workspace, 'marker'))).toBe(false);
  });

  testNeeds('bwrap')(
    'PostToolUse sees the result and gives the model context; PostToolUseFailure sees the error',
    async () => {
      const workspace = tempDir('lathe-hooks-');
      const seen = join(workspace, 'seen.jsonl');
      writeHookSettings(workspace, {
        PostToolUse: [
          {
            matcher: 'execute_command',
            hooks: [
              { type: 'command', command: `cat >> ${seen}; ${json({ additionalContext: 'lint passed' })}` },
            ],
          },
        ],
        PostToolUseFailure: [{ matcher: '', hooks: [{ type: 'command', command: `cat >> ${seen}` }] }],
      });
      const { runtime } = await hookedRuntime(workspace);
      const ok = await runtime.runTool('execute_command', { command: 'echo hello' });
      expect(ok.text).toMatch(/hello[\s\S]*\n\nlint passed$/);
      const failed = await runtime.runTool('execute_command', { command: 'cat missing.txt' });
      expect(failed.isError).toBe(true);
      const inputs = readFileSync(seen, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(inputs[0]).toMatchObject({ hook_event_name: 'PostToolUse', tool_name: 'execute_command' });
      expect(inputs[0].tool_response).toContain('hello');
      expect(inputs[1]).toMatchObject({
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'execute_command',
      });
      expect(inputs[1].error).toContain('missing.txt');
    },
  );

  testNeeds('bwrap')('a PermissionRequest hook answers an ask in the user’s place', async () => {
    const workspace = tempDir('lathe-hooks-');
    writeHookSettings(workspace, {
      PermissionRequest: [
        {
          matcher: 'execute_command',
          hooks: [
            {
              type: 'command',
              command: json({
                hookSpecificOutput: {
                  hookEventName: 'PermissionRequest',
                  decision: { behavior: 'deny', message: 'not on Fridays' },
                },
              }),
            },
          ],
        },
      ],
    });
    const { runtime } = await hookedRuntime(workspace, { yolo: false });
    const result = await runtime.runTool('execute_command', { command: 'touch marker' });
    expect(result.text).toBe('Blocked by a PermissionRequest hook: not on Fridays');
    expect(existsSync(join(workspace, 'marker'))).toBe(false);
  });

  it('matchers cover both MCP spellings, use_mcp_tool, Claude Code’s tool names, and nothing else', async () => {
    const workspace = tempDir('lathe-hooks-');
    const log = join(workspace, 'matched');
    const group = (matcher: string) => ({
      matcher,
      hooks: [{ type: 'command', command: `echo '${matcher}' >> ${log}` }],
    });
    writeHookSettings(workspace, {
      PreToolUse: [group('mcp__touchy__.*'), group('touchy__touch'), group('Write'), group('glob')],
    });
    const { runtime } = await hookedRuntime(workspace, { touchServer: true });
    await runtime.runTool('touchy__touch', { path: join(workspace, 'a') });
    await runtime.runTool('use_mcp_tool', {
      server_name: 'touchy',
      tool_name: 'touch',
      arguments: { path: join(workspace, 'b') },
    });
    await runtime.runTool('write_to_file', { path: 'c.txt', content: 'c\n' });
    await runtime.runTool('list_files', { path: '.' });
    expect(readFileSync(log, 'utf8').trim().split('\n').sort()).toEqual(
      ['Write', 'mcp__touchy__.*', 'mcp__touchy__.*', 'touchy__touch', 'touchy__touch'].sort(),
    );
  });
});
