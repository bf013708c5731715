import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamMailNote } from '../../src/messaging/team_store.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir } from '../support/runtime_fixtures.js';

const runtimeIn = () =>
  createRuntime({ cwd: tempDir(), documentsRoot: tempDir('lathe-home-'), features: ['swarms'], env: {} });

describe('teams', () => {
  it('a message to a team lands in every member mailbox; team/member in one; each is taken once', async () => {
    const runtime = runtimeIn();
    const made = await runtime.runTool('team_create', {
      name: 'builders',
      description: 'builds things',
      members: ['ann', 'bob'],
    });
    expect(made.text).toMatch(/^Created team builders \(members: ann, bob\)/);
    await runtime.runTool('send_message', { to: 'builders', message: 'to all' });
    await runtime.runTool('send_message', { to: 'builders/bob', message: 'to bob' });
    const teams = runtime.teams!;
    expect((await teams.mailbox('builders', 'ann')).map((m) => m.text)).toEqual(['to all']);
    const bob = await teams.mailbox('builders', 'bob');
    expect(bob.map((m) => [m.text, m.from, m.team])).toEqual([
      ['to all', 'lead', 'builders'],
      ['to bob', 'lead', 'builders'],
    ]);
    const unread = await teams.takeUnread('bob');
    expect(unread.map((m) => m.text)).toEqual(['to all', 'to bob']);
    expect(teamMailNote(unread)).toMatch(
      /^New mail in your team mailbox.*\n\nFrom lead to team builders \(.*\):\nto all\n\nFrom lead to team builders \(.*\):\nto bob$/s,
    );
    expect(await teams.takeUnread('bob')).toEqual([]);
    await runtime.runTool('send_message', { to: 'builders', message: 'later' });
    expect((await teams.takeUnread('bob')).map((m) => m.text)).toEqual(['later']);
    expect((await teams.takeUnread('ann')).map((m) => m.text)).toEqual(['to all', 'later']);
    await runtime.dispose();
  });

  it('keeps a shared task list, each item as its latest record says', async () => {
    const runtime = runtimeIn();
    await runtime.runTool('team_create', { name: 'crew', members: ['ann'] });
    const teams = runtime.teams!;
    const task = await teams.recordTask('crew', { subject: 'write the parser', status: 'open' });
    await teams.recordTask('crew', { id: task.id, subject: task.subject, status: 'claimed', owner: 'ann' });
    expect(await teams.tasks('crew')).toMatchObject([{ id: task.id, status: 'claimed', owner: 'ann' }]);
    await runtime.dispose();
  });

  it('refuses a bad or taken name and makes nothing', async () => {
    const runtime = runtimeIn();
    const bad = await runtime.runTool('team_create', { name: '../escape', members: ['ann'] });
    expect(bad).toMatchObject({
      isError: true,
      text: expect.stringMatching(/^Team "..\/escape" is not a valid name/),
    });
    const badMember = await runtime.runTool('team_create', { name: 'ok', members: ['a/b'] });
    expect(badMember.text).toMatch(/^Member "a\/b" is not a valid name/);
    expect(existsSync(join(runtime.sessionDir, 'teams', 'ok'))).toBe(false);
    await runtime.runTool('team_create', { name: 'crew' });
    const again = await runtime.runTool('team_create', { name: 'crew' });
    expect(again).toMatchObject({ isError: true, text: expect.stringMatching(/exists already/) });
    await runtime.dispose();
  });

  it('a team without members takes no message', async () => {
    const runtime = runtimeIn();
    await runtime.runTool('team_create', { name: 'empty' });
    const result = await runtime.runTool('send_message', { to: 'empty', message: 'hello?' });
    expect(result).toMatchObject({
      isError: true,
      text: 'Team "empty" has no members: nobody would read the message.',
    });
    await runtime.dispose();
  });

  it('team_delete refuses while a member runs, then removes the team and its mailboxes', async () => {
    const runtime = runtimeIn();
    await runtime.runTool('team_create', { name: 'crew', members: ['ann', 'bob'] });
    await runtime.runTool('send_message', { to: 'crew', message: 'hello' });
    const folder = join(runtime.sessionDir, 'teams', 'crew');
    const teams = runtime.teams!;
    teams.activeMembers = (team) => team.members.filter((m) => m === 'bob');
    const refused = await runtime.runTool('team_delete', { name: 'crew' });
    expect(refused).toMatchObject({
      isError: true,
      text: 'Team "crew" still has running members: bob. Stop them first (task_stop) or wait for them to finish; nothing was deleted.',
    });
    expect(readFileSync(join(folder, 'mailboxes', 'ann.jsonl'), 'utf8')).toContain('hello');
    teams.activeMembers = () => [];
    expect((await runtime.runTool('team_delete', { name: 'crew' })).text).toBe(
      'Deleted team crew and its mailboxes.',
    );
    expect(existsSync(folder)).toBe(false);
    const gone = await runtime.runTool('team_delete', { name: 'crew' });
    expect(gone).toMatchObject({
      isError: true,
      text: 'No team "crew". Teams: none (team_create makes one).',
    });
    const unknown = await runtime.runTool('send_message', { to: 'crew', message: 'anyone?' });
    expect(unknown.isError).toBe(true);
    await runtime.dispose();
  });
});
