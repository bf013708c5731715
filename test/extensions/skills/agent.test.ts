import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testNeeds } from '../../support/required_programs.js';
import { writeTree } from '../../support/runtime_fixtures.js';
import { call, type Reply, say, senderOf, startParent } from '../../support/subagent_harness.js';

const SKILL = `---
name: marker-maker
description: Makes marker files when the user asks for markers.
allowed-tools: Bash(touch:*)
---
Make the marker with touch.
`;

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(reply: Reply) {
  const home = writeTree({ 'skills/marker-maker/SKILL.md': SKILL }, 'lathe-home-');
  const parent = await startParent({ reply, home });
  close = parent.close;
  return parent;
}

const skillRules = (rules: readonly { source: string }[]) =>
  rules.filter((r) => r.source === 'skill marker-maker');

describe('a skill in an agent’s prompt', () => {
  it('is listed in the system prompt with load_skill among the tools', async () => {
    const parent = await start(() => say('Done.'));
    await parent.agent.send('hello');
    const [request] = parent.modelRequests();
    expect(request.toolNames).toContain('load_skill');
    expect(request.systemText).toContain(
      '\n- marker-maker: Makes marker files when the user asks for markers.',
    );
  });

  testNeeds('bwrap')('pre-approves its allowed-tools once loaded, until the prompt ends', async () => {
    const parent = await start(
      (_, index) =>
        [
          call('load_skill', { name: 'marker-maker' }),
          call('execute_command', { command: 'touch first' }),
          say('Made it.'),
          call('execute_command', { command: 'touch second' }),
          say('Could not.'),
        ][index],
    );
    const before = parent.runtime.permissions.rules.length;
    await parent.agent.send('make a marker');
    const loaded = parent.modelRequests()[1].toolResults[0];
    expect(loaded.content).toContain('Make the marker with touch.');
    expect(loaded.content).toContain(
      "Pre-approved until the user's current request ends: execute_command(touch:*).",
    );
    expect(existsSync(join(parent.dir, 'first'))).toBe(true);
    // The prompt ended: the grant is gone, and the same command is refused again (no one to ask).
    expect(skillRules(parent.runtime.permissions.rules)).toEqual([]);
    expect(parent.runtime.permissions.rules.length).toBe(before);
    await parent.agent.send('another marker');
    expect(existsSync(join(parent.dir, 'second'))).toBe(false);
    expect(parent.modelRequests()[4].toolResults[0].isError).toBe(true);
  });

  it('is not pre-approved before it is loaded', async () => {
    const parent = await start(
      (_, index) => [call('execute_command', { command: 'touch early' }), say('No.')][index],
    );
    await parent.agent.send('make a marker');
    expect(existsSync(join(parent.dir, 'early'))).toBe(false);
  });

  it('is listed to a child agent too, which may load it', async () => {
    const parent = await start((sender, index, req) => {
      if (sender === 'parent')
        return index === 0 ? call('use_subagent', { description: 'child', prompt: 'child task' }) : say('ok');
      return index === 0
        ? call('load_skill', { name: 'marker-maker' })
        : say(`child saw ${req.toolResults.length}`);
    });
    await parent.agent.send('delegate');
    const child = parent.modelRequests().filter((r) => senderOf(r) !== 'parent');
    expect(child[0].systemText).toContain('- marker-maker: Makes marker files');
    expect(child[1].toolResults[0].content).toContain('Make the marker with touch.');
  });
});
