import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { call, say, startParent } from '../support/subagent_harness.js';

const runtimes: Runtime[] = [];
let harness: Awaited<ReturnType<typeof startParent>> | undefined;
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
  await harness?.close();
  harness = undefined;
});

function runtimeWith(features: string[]): Runtime {
  const runtime = createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), features, env: {} });
  runtimes.push(runtime);
  return runtime;
}

const idOf = (result: { data?: unknown }) => (result.data as { id: string }).id;

describe("the task tools on a team's shared list", () => {
  it('task_create, task_list and task_update with team work on the list in the team folder', async () => {
    const runtime = runtimeWith(['tasks', 'swarms']);
    await runtime.runTool('team_create', { name: 'crew', members: ['ann', 'bob'] });
    const created = await runtime.runTool('task_create', {
      team: 'crew',
      subject: 'write the parser',
      description: 'all tests green',
    });
    expect(created.text).toMatch(
      /^Added tt_[0-9a-f]{8} \(open\) to team crew's task list: write the parser\./,
    );
    const id = idOf(created);
    await runtime.runTool('task_create', { team: 'crew', subject: 'write the docs' });

    const claimed = await runtime.runTool('task_update', {
      team: 'crew',
      id,
      status: 'claimed',
      owner: 'ann',
    });
    expect(claimed.text).toBe(`Updated ${id} [claimed by ann] write the parser in team crew.`);

    const listed = await runtime.runTool('task_list', { team: 'crew' });
    expect(listed.text).toMatch(
      new RegExp(`^${id} \\[claimed by ann\\] write the parser\\ntt_[0-9a-f]{8} \\[open\\] write the docs$`),
    );
    expect((await runtime.runTool('task_list', { team: 'crew', status: 'open' })).text).toMatch(
      /\[open\] write the docs$/,
    );
    // The session's own table is another list.
    expect((await runtime.runTool('task_list', {})).text).toBe('No tasks yet; task_create makes one.');

    // Done, and the owner given up: the latest record keeps the description and drops the owner.
    await runtime.runTool('task_update', { team: 'crew', id, status: 'done', owner: '' });
    const records = readFileSync(join(runtime.sessionDir, 'teams', 'crew', 'tasks.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(4);
    const [parser, docs] = await runtime.teams!.tasks('crew');
    expect(parser).toMatchObject({ id, status: 'done', description: 'all tests green' });
    expect(parser).not.toHaveProperty('owner');
    expect(docs).toMatchObject({ subject: 'write the docs', status: 'open' });
  });

  it('an unknown team is an error naming the teams there are; an unknown item names the items', async () => {
    const runtime = runtimeWith(['tasks', 'swarms']);
    await runtime.runTool('team_create', { name: 'crew' });
    await runtime.runTool('team_create', { name: 'docs' });
    const expected = { isError: true, text: 'No team "crwe". Teams: crew, docs.' };
    expect(await runtime.runTool('task_create', { team: 'crwe', subject: 'x' })).toMatchObject(expected);
    expect(await runtime.runTool('task_list', { team: 'crwe' })).toMatchObject(expected);
    expect(await runtime.runTool('task_update', { team: 'crwe', id: 'tt_1', status: 'done' })).toMatchObject(
      expected,
    );
    expect(await runtime.runTool('task_update', { team: 'crew', id: 'tt_1', status: 'done' })).toMatchObject({
      isError: true,
      text: 'Team crew has no task tt_1. Its tasks: none yet.',
    });
  });

  it('without feature swarms, team is an error saying to turn it on', async () => {
    const runtime = runtimeWith(['tasks']);
    for (const [name, input] of [
      ['task_create', { team: 'crew', subject: 'x' }],
      ['task_list', { team: 'crew' }],
      ['task_update', { team: 'crew', id: 'tt_1', status: 'done' }],
    ] as const) {
      expect(await runtime.runTool(name, input)).toMatchObject({
        isError: true,
        text: expect.stringMatching(/^Team task lists need feature swarms, which is off: turn it on/),
      });
    }
  });

  testNeeds('bwrap')(
    "refuses a team's status for a session task, and a command or an owner where they do not belong",
    async () => {
      const runtime = runtimeWith(['tasks', 'swarms']);
      await runtime.runTool('team_create', { name: 'crew' });
      const mine = await runtime.runTool('task_create', { subject: 'mine' });
      expect(await runtime.runTool('task_update', { id: idOf(mine), status: 'claimed' })).toMatchObject({
        isError: true,
        text: expect.stringContaining(`Status "claimed" is for a team's tasks (with team)`),
      });
      const shared = await runtime.runTool('task_create', { team: 'crew', subject: 'shared' });
      expect(
        await runtime.runTool('task_update', { team: 'crew', id: idOf(shared), status: 'running' }),
      ).toMatchObject({
        isError: true,
        text: expect.stringContaining("A team's tasks are open, claimed, done"),
      });
      expect(await runtime.runTool('task_update', { id: idOf(mine), owner: 'ann' })).toMatchObject({
        isError: true,
        text: expect.stringContaining("owner is for a team's task"),
      });
      expect(
        await runtime.runTool('task_create', { team: 'crew', subject: 'run', command: 'true' }),
      ).toMatchObject({
        isError: true,
        text: expect.stringContaining("A team's task is tracked only"),
      });
      expect(await runtime.teams!.tasks('crew')).toMatchObject([{ subject: 'shared', status: 'open' }]);
    },
  );

  it('a child member sees the lead’s task and claims it', async () => {
    harness = await startParent({
      features: ['tasks', 'swarms'],
      settings: { approvals: { subagents: 'allow' } },
      reply: (sender, i, req) => {
        if (sender === 'parent') {
          const steps = [
            call('team_create', { name: 'crew', members: ['scout'] }),
            call('task_create', { team: 'crew', subject: 'map the repository' }),
            call('use_subagent', { description: 'scout', prompt: 'pick a task' }),
          ];
          return steps[i] ?? say('done');
        }
        if (i === 0) return call('task_list', { team: 'crew' });
        if (i === 1) {
          const id = /(tt_[0-9a-f]{8}) \[open\] map the repository/.exec(
            JSON.stringify(req.body.messages),
          )?.[1];
          return call('task_update', {
            team: 'crew',
            id: id ?? 'none-seen',
            status: 'claimed',
            owner: 'scout',
          });
        }
        return say('claimed');
      },
    });
    await harness.agent.send('organise');
    const updates = harness.childEvents('scout').filter((e) => e.type === 'tool_result');
    expect(updates.map((e) => e.type === 'tool_result' && e.result.isError)).toEqual([false, false]);
    expect(await harness.runtime.teams!.tasks('crew')).toMatchObject([
      { subject: 'map the repository', status: 'claimed', owner: 'scout' },
    ]);
  });
});
