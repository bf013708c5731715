import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionsDir } from '../../src/config/paths.js';
import { findSession } from '../../src/session/catalog.js';
import type { RecordedRequest, ScriptedTurn } from '../support/fake_model_server.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

afterEach(closeFakeServers);

const CHILD_PROMPT = 'TASK-PROMPT-51: say the magic words';

/** Whether a request is the spawned task's (its first user message is the task's prompt). */
const isTaskRequest = (req: RecordedRequest) =>
  JSON.stringify(req.body.messages?.[0] ?? '').includes(CHILD_PROMPT);

/**
 * One model for both processes, answering each by who asks: the task says the magic words; the
 * parent spawns it, waits for its output, and ends.
 */
const bothSides: ScriptedTurn = {
  respond: (req) => {
    if (isTaskRequest(req)) return { text: 'MAGIC-WORDS-777' };
    const last = req.toolResults.at(-1);
    if (!last)
      return { toolCalls: [{ name: 'spawn_task', input: { prompt: CHILD_PROMPT, description: 'magic' } }] };
    const id = /^Started (task_[0-9a-f]+)/.exec(last.content)?.[1];
    if (id) return { toolCalls: [{ name: 'task_output', input: { id, wait: 60 } }] };
    return { text: 'The task is done.' };
  },
};

/** A tool is offered by its definition or, deferred, by its line in tool_search's description. */
const offersTool = (request: RecordedRequest, name: string) =>
  request.toolNames.includes(name) || JSON.stringify(request.body?.tools ?? []).includes(name);

describe('spawn_task', () => {
  it('is denied in a headless run without --approve or --yolo, and starts nothing', async () => {
    const dir = tempDir();
    const run = await runHeadless(dir, [
      { toolCalls: [{ name: 'spawn_task', input: { prompt: CHILD_PROMPT } }] },
      { text: 'Could not start it.' },
    ]);
    expect(run.code, run.stderr).toBe(0);
    const result = run.requests[1].toolResults[0];
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(
      /^Not run: spawn_task starts an independent lathe run in its own session, and no one is present to approve it \(rerun with --approve subagents or --yolo\)/,
    );
    expect(run.stderr).toContain('spawn_task');
    // One session only: the run's own.
    expect(readdirSync(sessionsDir(run.home, dir)).filter((name) => name.endsWith('.jsonl'))).toHaveLength(1);
    expect(run.server.requests.filter(isTaskRequest)).toEqual([]);
  });

  it('with --yolo starts a separate lathe in its own session, whose output task_output reads', async () => {
    const dir = tempDir();
    const run = await runHeadless(dir, Array(6).fill(bothSides), ['--yolo', '--feature', 'tasks']);
    expect(run.code, run.stderr).toBe(0);
    const started = run.requests.find((r) => !isTaskRequest(r) && r.toolResults[0]?.name === 'spawn_task');
    const startedText = started!.toolResults[0].content;
    const sessionId = /session (\d{8}-\d{6}-[0-9a-f]{6})\)/.exec(startedText)?.[1];
    expect(sessionId, startedText).toBeDefined();
    expect(sessionId).not.toBe(run.json.session_id);

    const output = run.requests.find((r) => !isTaskRequest(r) && r.toolResults[0]?.name === 'task_output');
    expect(output!.toolResults[0].content).toMatch(
      /^task_[0-9a-f]+ \[completed, exit code 0\], new output:\n/,
    );
    expect(output!.toolResults[0].content).toContain('MAGIC-WORDS-777');
    expect(run.json.result).toBe('The task is done.');

    // The task ran as its own process and session, as a task: it was offered no spawn_task.
    const task = run.server.requests.filter(isTaskRequest);
    expect(task).toHaveLength(1);
    expect(offersTool(task[0], 'spawn_task')).toBe(false);
    expect(offersTool(run.requests[0], 'spawn_task')).toBe(true);
    const session = findSession(run.home, dir, sessionId!);
    expect(session && existsSync(session.path)).toBe(true);
  }, 60_000);

  it.each([
    ['--trust', true],
    ['no --trust', false],
  ])(
    "inherits the run's trust of its folder (%s): the task sees the folder's skills only then",
    async (_, trusted) => {
      const dir = writeTree({
        '.agents/skills/review/SKILL.md':
          '---\nname: review\ndescription: SKILL-OF-THE-FOLDER-31\n---\nReview.\n',
      });
      const flags = ['--yolo', '--feature', 'tasks', ...(trusted ? ['--trust'] : [])];
      const run = await runHeadless(dir, Array(6).fill(bothSides), flags);
      expect(run.code, run.stderr).toBe(0);
      const task = run.server.requests.filter(isTaskRequest);
      expect(task).toHaveLength(1);
      expect(run.requests[0].systemText?.includes('SKILL-OF-THE-FOLDER-31')).toBe(trusted);
      expect(task[0].systemText?.includes('SKILL-OF-THE-FOLDER-31')).toBe(trusted);
    },
    60_000,
  );
});
