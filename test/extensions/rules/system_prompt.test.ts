import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../support/fake_model/types.js';
import { writeTree } from '../../support/runtime_fixtures.js';
import { call, type Reply, say, startParent } from '../../support/subagent_harness.js';

type Parent = Awaited<ReturnType<typeof startParent>>;
let parent: Parent | undefined;
afterEach(async () => {
  await parent?.close();
  parent = undefined;
});

/** A workspace with an always-on rule, a rule for Python files, and files to read. */
function workspace(extra: Record<string, string> = {}) {
  return writeTree({
    '.agents/rules/python.md': '---\npaths: ["**/*.py"]\n---\nPYTHON-RULE: use type hints.',
    '.agents/rules/style.md': 'STYLE-RULE: keep lines short.',
    'notes.txt': 'notes\n',
    'src/app.py': 'print("hi")\n',
    ...extra,
  });
}

const systemOf = (request: RecordedRequest) => request.systemText ?? '';

describe('rules in the system prompt', () => {
  it('adds a conditional rule only once a file matching it has been read', async () => {
    const reply: Reply = (_sender, i) =>
      [call('read_file', { path: 'notes.txt' }), call('read_file', { path: 'src/app.py' }), say('done')][i];
    parent = await startParent({ reply, cwd: workspace() });
    await parent.agent.send('look around');
    const systems = parent.requestsOf('parent').map(systemOf);
    expect(systems).toHaveLength(3);
    expect(
      systems.every((s) => s.includes('Rule from .agents/rules/style.md (follow it):\nSTYLE-RULE')),
    ).toBe(true);
    expect(systems[0]).not.toContain('PYTHON-RULE');
    expect(systems[1]).not.toContain('PYTHON-RULE');
    expect(systems[2]).toContain(
      'Rule from .agents/rules/python.md (for files matching **/*.py) (follow it):\nPYTHON-RULE: use type hints.',
    );
  });

  it('adds a conditional rule once a matching file is edited', async () => {
    const reply: Reply = (_sender, i) =>
      [call('write_to_file', { path: 'tools/gen.py', content: 'x = 1\n' }), say('done')][i];
    parent = await startParent({ reply, cwd: workspace(), askUser: async () => ({ approved: true }) });
    await parent.agent.send('write a script');
    const systems = parent.requestsOf('parent').map(systemOf);
    expect(systems[0]).not.toContain('PYTHON-RULE');
    expect(systems[1]).toContain('PYTHON-RULE');
  });

  it('adds a conditional rule for the whole session when a child reads a matching file', async () => {
    const reply: Reply = (sender, i) =>
      sender === 'parent'
        ? [call('use_subagent', { description: 'reader', prompt: 'Read src/app.py' }), say('done')][i]
        : [call('read_file', { path: 'src/app.py' }), say('it prints hi')][i];
    parent = await startParent({ reply, cwd: workspace() });
    await parent.agent.send('have a child read the app');
    const parentSystems = parent.requestsOf('parent').map(systemOf);
    const childSystems = parent.requestsOf('Read src/app.py').map(systemOf);
    expect(parentSystems[0]).not.toContain('PYTHON-RULE');
    expect(childSystems[0]).toContain('STYLE-RULE');
    expect(childSystems[0]).not.toContain('PYTHON-RULE');
    expect(childSystems[1]).toContain('PYTHON-RULE');
    expect(parentSystems[1]).toContain('PYTHON-RULE');
  });

  it('adds a rule new_rule wrote at the next prompt', async () => {
    const reply: Reply = (_sender, i) =>
      [
        call('new_rule', { name: 'tabs', content: 'TABS-RULE: indent with tabs.' }),
        say('written'),
        say('ok'),
      ][i];
    parent = await startParent({ reply, cwd: workspace(), askUser: async () => ({ approved: true }) });
    await parent.agent.send('make a rule: tabs');
    expect(readFileSync(join(parent.dir, '.agents/rules/tabs.md'), 'utf8')).toBe(
      'TABS-RULE: indent with tabs.\n',
    );
    await parent.agent.send('next task');
    const systems = parent.requestsOf('parent').map(systemOf);
    expect(systems[0]).not.toContain('TABS-RULE');
    expect(systems[2]).toContain(
      'Rule from .agents/rules/tabs.md (follow it):\nTABS-RULE: indent with tabs.',
    );
  });

  it('leaves out the rules settings disable', async () => {
    const reply: Reply = () => say('ok');
    parent = await startParent({
      reply,
      cwd: workspace({ 'CLAUDE.md': 'CLAUDE-RULE' }),
      settings: { rules: { disabled: ['style'] } },
    });
    await parent.agent.send('hi');
    const [system] = parent.requestsOf('parent').map(systemOf);
    expect(system).toContain('CLAUDE-RULE');
    expect(system).not.toContain('STYLE-RULE');
    expect(parent.runtime.rules.statuses().map((s) => [s.rule.name, s.state.kind])).toEqual([
      ['.agents/rules/python.md', 'waiting'],
      ['.agents/rules/style.md', 'disabled'],
      ['CLAUDE.md', 'always'],
    ]);
  });

  it('puts the user’s rules, then the workspace’s, then other tools’ files after AGENTS.md', async () => {
    const home = writeTree({ 'rules/mine.md': 'USER-RULE' });
    const cwd = workspace({
      'AGENTS.md': 'AGENTS-TEXT',
      'GEMINI.md': 'GEMINI-RULE',
      '.cursorrules': 'CURSOR-RULE',
      '.windsurfrules': 'WINDSURF-RULE',
      '.clinerules/a.md': 'CLINE-RULE',
    });
    parent = await startParent({ reply: () => say('ok'), cwd, home });
    await parent.agent.send('hi');
    const [system] = parent.requestsOf('parent').map(systemOf);
    const order = [
      'AGENTS-TEXT',
      'USER-RULE',
      'STYLE-RULE',
      'CLINE-RULE',
      'CURSOR-RULE',
      'WINDSURF-RULE',
      'GEMINI-RULE',
    ];
    const at = order.map((text) => system.indexOf(text));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });
});
