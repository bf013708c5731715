import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SLASH_COMMAND_NAMES } from '../../src/config/commands/builtin_names.js';
import { globalSettingsPath } from '../../src/config/paths.js';
import { SLASH_COMMANDS } from '../../src/tui/session/slash_commands.js';
import { testNeeds } from '../support/required_programs.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const statusLine = (frame: string) => frame.trimEnd().split('\n').at(-1) ?? '';

describe('/model', () => {
  it('without a name opens a picker of known models, and the pick is used from then on', async () => {
    app = await renderApp([{ text: 'One.' }, { text: 'Two.' }]);
    await app.submit('first');
    await app.waitFor('One.');
    await app.submit('/model');
    const shown = await app.waitFor('Switch to which model?');
    expect(shown).toMatch(/1\. anthropic\/claude-sonnet-4-5 \(current\)\s+200k context · images/);
    expect(shown).toContain('anthropic/claude-haiku-4-5');
    expect(shown).toContain('google/gemini-2.5-pro');
    const haiku = shown.split('\n').find((line) => line.includes('anthropic/claude-haiku-4-5')) ?? '';
    app.write(/(\d)\./.exec(haiku)?.[1] ?? '');
    await app.waitFor('Model: anthropic/claude-haiku-4-5');
    await app.submit('second');
    await app.waitFor('Two.');
    expect(app.requests()[1].model).toBe('claude-haiku-4-5');
  });

  it('keeps the model when the picker is left with Esc', async () => {
    app = await renderApp([]);
    await app.submit('/model');
    await app.waitFor('Switch to which model?');
    app.write(KEYS.escape);
    await app.waitFor(/Ask lathe to do something/);
    expect(app.session.modelName).toBe('anthropic/claude-sonnet-4-5');
  });
});

describe('the cost line', () => {
  it('starts again from nothing after /clear, and shows what a resumed session had spent', async () => {
    app = await renderApp([{ text: 'Hi.', usage: { inputTokens: 1200, outputTokens: 300 } }]);
    await app.submit('hello');
    await app.waitFor('Hi.');
    await app.waitFor('1.5k/200k (1%) · $0.008');
    await app.submit('/clear');
    await app.waitFor('New session');
    await app.waitFor(/standard · 0\/200k \(0%\)\s/);
    expect(statusLine(app.frame())).not.toContain('$');
    await app.submit('/resume');
    await app.waitFor('Resume which session?');
    app.write(KEYS.enter);
    await app.waitFor('Resumed session');
    await app.waitFor('1.5k/200k (1%) · $0.008');
    await app.submit('/cost');
    const shown = await app.waitFor('Usage');
    expect(shown).toMatch(/input tokens\s+1,200/);
  });
});

describe('/status', () => {
  it('shows the model, mode, profile, workspace, session, sandbox, MCP servers, tokens and cost', async () => {
    app = await renderApp([]);
    await app.submit('/status');
    const shown = await app.waitFor('MCP servers');
    expect(shown).toMatch(/model\s+anthropic\/claude-sonnet-4-5/);
    expect(shown).toMatch(/mode\s+Act/);
    expect(shown).toMatch(/profile\s+standard/);
    expect(shown).toContain(app.session.runtime.workspace);
    expect(shown).toMatch(new RegExp(`session\\s+${app.session.runtime.sessionId}`));
    expect(shown).toMatch(/sandbox\s+(on|not active|off)/);
    expect(shown).toMatch(/MCP servers\s+none/);
    expect(shown).toMatch(/input tokens\s+0/);
  });
});

describe('/permissions', () => {
  it('lists the rules in effect with their source, and removes one saved to the user settings', async () => {
    app = await renderApp([], {
      userSettings: { permissions: { allow: ['execute_command(npm test)'], deny: ['read_file(.env)'] } },
    });
    const file = globalSettingsPath(app.home);
    await app.submit('/permissions');
    const shown = await app.waitFor('Permission rules');
    expect(shown).toMatch(/1\. allow\s+execute_command\(npm test\)\s+user settings/);
    expect(shown).toMatch(/deny\s+read_file\(\.env\)/);
    expect(shown).toMatch(/Approvals: read allow · readOutside ask/);
    const number = /(\d+)\. allow\s+execute_command\(npm test\)/.exec(shown)?.[1];
    await app.submit(`/permissions remove ${number}`);
    // The line wraps before the file's path.
    await app.waitFor(
      /Removed allow execute_command\(npm test\) from this session and\s+\S+settings\.json\./,
    );
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      permissions: { allow: [], deny: ['read_file(.env)'] },
    });
    expect(app.session.runtime.permissions.rules.some((r) => r.pattern === 'npm test')).toBe(false);
  });

  testNeeds('bwrap')(
    'removes a rule allowed for this session, and refuses one from the command line',
    async () => {
      app = await renderApp(
        [{ toolCalls: [{ name: 'execute_command', input: { command: 'touch one' } }] }, { text: 'Touched.' }],
        { settings: { permissions: { deny: ['execute_command(rm)'] } } },
      );
      await app.submit('touch');
      await app.waitFor('Run `touch one`?');
      app.write('2');
      await app.waitFor('Touched.');
      await app.submit('/permissions');
      const shown = await app.waitFor('Permission rules');
      const session = /(\d+)\. allow\s+execute_command\(touch\)\s+this session/.exec(shown)?.[1];
      const flag = /(\d+)\. deny\s+execute_command\(rm\)\s+command line/.exec(shown)?.[1];
      expect(session).toBeDefined();
      await app.submit(`/permissions remove ${flag}`);
      await app.waitFor('comes from command line; change it there');
      await app.submit(`/permissions remove ${session}`);
      await app.waitFor('Removed allow execute_command(touch) from this session.');
      expect(app.session.runtime.permissions.rules.some((r) => r.source === 'this session')).toBe(false);
    },
  );
});

describe('/export', () => {
  it('writes the conversation to a Markdown file and says where', async () => {
    app = await renderApp([{ text: 'The answer is 42.' }]);
    await app.submit('/export');
    await app.waitFor('Nothing to export yet');
    await app.submit('what is the answer?');
    await app.waitFor('The answer is 42.');
    await app.submit('/export notes/answer.md');
    const target = join(app.dir, 'notes/answer.md');
    await app.waitFor(`Exported the conversation to ${target}`);
    const markdown = readFileSync(target, 'utf8');
    expect(markdown).toContain(`# Session ${app.session.runtime.sessionId}`);
    expect(markdown).toContain('## User\n\nwhat is the answer?');
    expect(markdown).toContain('## Assistant\n\nThe answer is 42.');
    await app.submit('/export');
    const inSession = join(app.session.runtime.sessionDir, 'conversation.md');
    await app.waitFor(/Exported the conversation to [\s\S]*conversation\.md/);
    expect(readFileSync(inSession, 'utf8')).toContain('## Assistant\n\nThe answer is 42.');
  });
});

describe('Tab completion', () => {
  it('knows every slash command by name without loading them', () => {
    expect(SLASH_COMMAND_NAMES).toEqual(SLASH_COMMANDS.map((c) => c.name));
  });
});

describe('/skills', () => {
  it('lists each skill: who may start it, what it pre-approves, where it lives, its warnings', async () => {
    app = await renderApp([], { startLater: true });
    const folder = join(app.home, 'skills', 'pdf-tools');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'SKILL.md'),
      '---\nname: pdf-tools\ndescription: Extracts text from PDFs.\nallowed-tools: Read\nmodel: opus\n---\nGo.\n',
    );
    app.ready();
    await app.submit('/skills');
    const shown = await app.waitFor('Skills (1)');
    expect(shown).toMatch(/\/pdf-tools\s+Extracts text from PDFs\./);
    expect(shown).toContain('the model may load it · pre-approves read_file ·');
    expect(shown).toContain(join(folder, 'SKILL.md'));
    expect(shown).toContain('⚠ model is not a skill field lathe reads: ignored');
  });
});
