import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeFakeServers, runHeadless } from '../../support/headless_run.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';

// Hooks in `lathe -p`, the built command against the fake model server. The hooks live in the
// user's settings ($LATHE_HOME), which load in any folder.

afterEach(closeFakeServers);

const hook = (command: string, matcher = '') => [{ matcher, hooks: [{ type: 'command', command }] }];

function homeWithHooks(hooks: Record<string, unknown>): string {
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'));
  writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ hooks }));
  return home;
}

const call = (name: string, input: unknown) => ({ toolCalls: [{ name, input }] });

describe('hooks in lathe -p', () => {
  it('SessionStart and UserPromptSubmit add context the model receives; SessionEnd runs at the end', async () => {
    const dir = tempDir('lathe-ws-');
    const log = join(dir, 'events.log');
    const home = homeWithHooks({
      SessionStart: hook(`echo "the build is green"`),
      UserPromptSubmit: hook(
        `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ticket ABC-12 is the one"}}'`,
      ),
      SessionEnd: hook(`cat >> ${log}`),
    });
    const run = await runHeadless(dir, [{ text: 'Done.' }], [], { home });
    expect(run.code).toBe(0);
    const sent = JSON.stringify(run.requests[0].body);
    expect(sent).toContain('do the task');
    expect(sent).toContain('the build is green');
    expect(sent).toContain('ticket ABC-12 is the one');
    expect(JSON.parse(readFileSync(log, 'utf8'))).toMatchObject({
      hook_event_name: 'SessionEnd',
      reason: 'exit',
    });
  });

  it('a prompt a UserPromptSubmit hook blocks never reaches the model', async () => {
    const dir = tempDir('lathe-ws-');
    const home = homeWithHooks({ UserPromptSubmit: hook('echo "no prompts after 6pm" >&2; exit 2') });
    const run = await runHeadless(dir, [{ text: 'Done.' }], [], { home });
    expect(run.code).toBe(2);
    expect(run.requests).toHaveLength(0);
    expect(run.json).toMatchObject({ subtype: expect.any(String) });
    expect(run.stdout).toContain('A hook blocked the prompt: no prompts after 6pm');
  });

  it("blocks a child agent's command with exit 2, tells the model, and runs the child's start and stop hooks", async () => {
    const dir = tempDir('lathe-ws-');
    const log = join(dir, 'events.log');
    const marker = join(dir, 'marker');
    const home = homeWithHooks({
      PreToolUse: hook('echo "no touching in this repository" >&2; exit 2', 'Bash'),
      PostToolUse: hook('echo "formatter missing" >&2; exit 1', 'use_subagent'),
      SubagentStart: hook(`cat >> ${log}; echo >> ${log}`, 'general'),
      SubagentStop: hook(`cat >> ${log}; echo >> ${log}`),
    });
    const run = await runHeadless(
      dir,
      [
        call('use_subagent', { description: 'toucher', prompt: 'touch the marker' }),
        call('execute_command', { command: `touch ${marker}` }),
        { text: 'The hook refused it.' },
        { text: 'Done.' },
      ],
      ['--yolo'],
      { home },
    );
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(run.requests[2].toolResults[0]).toMatchObject({
      content: 'Blocked by a hook: no touching in this repository',
      isError: true,
    });
    const events = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.hook_event_name)).toEqual(['SubagentStart', 'SubagentStop']);
    expect(events[1]).toMatchObject({
      agent_type: 'general',
      last_assistant_message: 'The hook refused it.',
    });
    expect(run.stderr).toMatch(
      /lathe: hook `echo "formatter missing" >&2; exit 1` \(PostToolUse use_subagent\) exited with code 1: formatter missing; going on without it/,
    );
  });

  testNeeds('bwrap')(
    'a Stop hook sends the agent on once with its reason; continue: false stops a run',
    async () => {
      const dir = tempDir('lathe-ws-');
      const home = homeWithHooks({
        Stop: hook(
          `grep -q '"stop_hook_active":false' && echo '{"decision":"block","reason":"run the tests too"}' || true`,
        ),
      });
      const run = await runHeadless(dir, [{ text: 'Edited.' }, { text: 'Tests pass.' }], [], { home });
      expect(run.code).toBe(0);
      expect(run.requests).toHaveLength(2);
      expect(run.requests[1].lastUserText).toBe('A Stop hook asks you to go on: run the tests too');
      expect(run.json.result).toBe('Tests pass.');

      const stopping = homeWithHooks({
        PreToolUse: hook(`echo '{"continue":false,"stopReason":"deploy freeze"}'`),
      });
      const stopped = await runHeadless(
        dir,
        [call('execute_command', { command: 'touch m' }), { text: 'never' }],
        ['--yolo'],
        {
          home: stopping,
        },
      );
      expect(stopped.code).toBe(2);
      expect(stopped.requests).toHaveLength(1);
      expect(stopped.json.result).toBe('deploy freeze');
      expect(existsSync(join(dir, 'm'))).toBe(false);
    },
  );
});
