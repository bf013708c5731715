import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testNeeds } from '../support/required_programs.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the prompt', () => {
  it('folds a large paste into a placeholder and sends all of it', async () => {
    app = await renderApp([{ text: 'Got it.' }]);
    const pasted = Array.from({ length: 40 }, (_, i) => `row ${i}`).join('\r');
    app.write(`[200~${pasted}[201~`.replace(/\[200~/, '\x1b[200~').replace(/\[201~$/, '\x1b[201~'));
    await app.waitFor('[Pasted text #1 +40 lines]');
    await app.submit(' what is this?');
    await app.waitFor('Got it.');
    expect(app.frame()).toContain('› [Pasted text #1 +40 lines] what is this?');
    expect(app.requests()[0].lastUserText).toContain('row 0\nrow 1\n');
    expect(app.requests()[0].lastUserText).toContain('row 39 what is this?');
  });

  it('attaches the file an @path names', async () => {
    app = await renderApp([{ text: 'Read it.' }], { files: { 'notes.md': 'the secret is 7' } });
    await app.submit('summarize @notes.md');
    await app.waitFor('Read it.');
    expect(app.frame()).toContain('Attached notes.md');
    expect(app.requests()[0].lastUserText).toContain('<file path="notes.md">\nthe secret is 7\n</file>');
  });

  it('runs a !command, shows its output and sends it with the next prompt', async () => {
    app = await renderApp([{ text: 'I see the output.' }]);
    await app.submit('!echo from-the-shell');
    await app.waitFor(/! echo from-the-shell\n {2}from-the-shell/);
    await app.submit('what did it print?');
    await app.waitFor('I see the output.');
    expect(app.requests()[0].lastUserText).toMatch(
      /I ran `echo from-the-shell` myself \(exit code 0\)[\s\S]*from-the-shell/,
    );
  });

  it('expands the latest tool result with Ctrl-O', async () => {
    app = await renderApp(
      [{ toolCalls: [{ name: 'read_file', input: { path: 'long.txt' } }] }, { text: 'Read.' }],
      { files: { 'long.txt': Array.from({ length: 12 }, (_, i) => `content line ${i}`).join('\n') } },
    );
    await app.submit('read it');
    await app.waitFor('Read.');
    expect(app.frame()).not.toContain('content line 11');
    app.write(KEYS.ctrlO);
    await app.waitFor('content line 11');
  });

  testNeeds('bwrap')('sends a running command to the background with Ctrl-B', async () => {
    app = await renderApp(
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'sleep 30' } }] },
        { text: 'It runs in the background.' },
      ],
      { settings: { approvals: { executeAll: 'allow' } } },
    );
    await app.submit('start it');
    await app.waitFor('sleep 30');
    const a = app;
    let sent = false;
    for (let i = 0; i < 200 && !sent; i++) {
      a.write(KEYS.ctrlB);
      await new Promise((resolve) => setTimeout(resolve, 25));
      sent = a.frame().includes('Sent the running command to the background');
    }
    await app.waitFor('It runs in the background.');
    expect(app.requests()[1].toolResults[0].content).toMatch(/sent the command to the background as cmd_/);
  });

  it('re-flows what is live to a narrower terminal', async () => {
    app = await renderApp([]);
    await app.waitFor('shift+tab mode');
    app.resize(40);
    const shown = await app.waitFor(/ ACT .*\n?$/);
    const lines = shown.split('\n');
    const status = lines[lines.length - 1];
    expect(status).toContain('ACT');
    expect(status.length).toBeLessThanOrEqual(40);
    expect(status).not.toContain('shift+tab mode');
  });
});

describe('slash commands', () => {
  it('/help lists the commands and keys', async () => {
    app = await renderApp([]);
    await app.submit('/help');
    const shown = await app.waitFor('Keys');
    for (const name of [
      '/mode',
      '/model',
      '/profile',
      '/tools',
      '/compact',
      '/resume',
      '/sessions',
      '/cost',
      '/clear',
      '/newrule',
      '/init',
      '/exit',
    ])
      expect(shown).toContain(name);
  });

  it('/mode sets Plan mode and the status line shows it', async () => {
    app = await renderApp([]);
    await app.submit('/mode plan');
    await app.waitFor(' PLAN ');
    expect(app.session.runtime.conditions.mode).toBe('plan');
  });

  it('/tools lists the pool', async () => {
    app = await renderApp([]);
    await app.submit('/tools');
    const shown = await app.waitFor('Tools (');
    expect(shown).toContain('read_file');
    expect(shown).toContain('execute_command');
  });

  it('/cost and the status line show tokens against the window, and cost', async () => {
    app = await renderApp([{ text: 'Hi.', usage: { inputTokens: 1200, outputTokens: 300 } }]);
    await app.submit('hello');
    await app.waitFor('Hi.');
    await app.waitFor('anthropic/claude-sonnet-4-5 · standard · 1.5k/200k (1%) · $0.008');
    await app.submit('/cost');
    const shown = await app.waitFor('Usage');
    expect(shown).toMatch(/input tokens\s+1,200/);
    expect(shown).toMatch(/cost\s+\$0\.0081/);
  });

  it('/model switches the model and the conversation goes on', async () => {
    app = await renderApp([{ text: 'One.' }, { text: 'Two.' }]);
    await app.submit('first');
    await app.waitFor('One.');
    await app.submit('/model anthropic/claude-haiku-4-5');
    await app.waitFor('Model: anthropic/claude-haiku-4-5');
    await app.submit('second');
    await app.waitFor('Two.');
    expect(app.requests()[1].model).toBe('claude-haiku-4-5');
    expect(JSON.stringify(app.requests()[1].body.messages)).toContain('One.');
  });

  it('/clear starts a new session without the earlier conversation', async () => {
    app = await renderApp([{ text: 'One.' }, { text: 'Two.' }]);
    await app.submit('first');
    await app.waitFor('One.');
    const before = app.session.runtime.sessionId;
    await app.submit('/clear');
    await app.waitFor('New session');
    await app.submit('second');
    await app.waitFor('Two.');
    expect(app.session.runtime.sessionId).not.toBe(before);
    expect(JSON.stringify(app.requests()[1].body.messages)).not.toContain('One.');
  });

  it('/compact replaces the conversation with a summary', async () => {
    app = await renderApp([{ text: 'One.' }, { text: 'Summary: the user said first.' }, { text: 'Two.' }]);
    await app.submit('first');
    await app.waitFor('One.');
    await app.submit('/compact');
    await app.waitFor('compacted into a summary');
    await app.submit('second');
    await app.waitFor('Two.');
    const sent = JSON.stringify(app.requests()[2].body.messages);
    expect(sent).toContain('Summary: the user said first.');
  });

  it('/sessions lists, and /resume picks, an earlier session', async () => {
    app = await renderApp([{ text: 'One.' }, { text: 'Back again.' }]);
    await app.submit('remember the word kiwi');
    await app.waitFor('One.');
    const first = app.session.runtime.sessionId;
    await app.submit('/clear');
    await app.waitFor('New session');
    await app.submit('/sessions');
    await app.waitFor(first);
    await app.submit('/resume');
    await app.waitFor('Resume which session?');
    app.write(KEYS.enter);
    await app.waitFor('Resumed session');
    expect(app.session.runtime.sessionId).toBe(first);
    await app.submit('what word?');
    await app.waitFor('Back again.');
    expect(JSON.stringify(app.requests()[1].body.messages)).toContain('remember the word kiwi');
  });

  it('/init asks the model for an AGENTS.md', async () => {
    app = await renderApp([{ text: 'Looking.' }]);
    writeFileSync(join(app.dir, 'package.json'), '{}');
    await app.submit('/init');
    await app.waitFor('Looking.');
    expect(app.requests()[0].lastUserText).toMatch(/Write an AGENTS\.md file at the root of this repository/);
  });

  it('says which command is unknown', async () => {
    app = await renderApp([]);
    await app.submit('/frobnicate');
    await app.waitFor('Unknown command /frobnicate. /help lists them.');
  });
});
