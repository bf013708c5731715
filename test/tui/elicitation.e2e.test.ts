import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { globalMcpSettingsPath } from '../../src/config/paths.js';
import { ASKING_SERVER } from '../support/mcp_servers/peers.js';
import { eventually } from '../support/processes.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter } from './support/lathe_terminal.js';

// The built `lathe` in tmux, 60 columns wide, with a real MCP server whose tools ask the user
// (elicitation): a form and a link.

const start = latheStarter();

const ask = (tool: 'form' | 'link') => ({ toolCalls: [{ name: `asking__${tool}`, input: {} }] });

/** A lathe home whose MCP settings start the asking server, its tools approved. */
function homeWithAskingServer(): string {
  const home = tempDir('lathe-home-');
  const file = globalMcpSettingsPath(home);
  mkdirSync(join(file, '..'), { recursive: true });
  const asking = { command: process.execPath, args: [ASKING_SERVER], autoApprove: ['form', 'link'] };
  writeFileSync(file, JSON.stringify({ mcpServers: { asking } }));
  return home;
}

async function askedInTerminal(tool: 'form' | 'link', env: Record<string, string> = {}) {
  const lathe = await start([ask(tool), { text: 'Noted.' }], {
    home: homeWithAskingServer(),
    size: { width: 60, height: 40 },
    env,
  });
  // The server's tools join the pool once it is up: /mcp says so.
  for (let i = 0; i < 100 && !lathe.term.history().includes('connected, 2 tools'); i++) {
    lathe.term.type('/mcp');
    lathe.term.press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  expect(lathe.term.history()).toContain('connected, 2 tools');
  lathe.term.type('set up the project');
  lathe.term.press('Enter');
  const toolResult = () => lathe.requests()[1]?.toolResults[0]?.content;
  return { ...lathe, toolResult };
}

needs('tmux')('a server’s form in the UI', () => {
  it('shows the fields with their defaults, checks a number’s bounds, and sends what was filled in', async () => {
    const { term, toolResult } = await askedInTerminal('form');
    const form = await term.waitFor('Esc to decline', { visible: true });
    expect(form).toContain('MCP server "asking" asks');
    expect(form).toContain('Describe the project to create.');
    expect(form).toMatch(/› Name \* {2}The project’s name/);
    expect(form).toMatch(/^ {4}demo/m);
    expect(form).toContain('Workers *  a whole number, 1 to 8');
    expect(form).toMatch(/Private\s+Space to switch\n\s+○ yes {2}● no/);
    expect(form).toMatch(/○ red {2}● green {2}○ blue/);
    for (const line of form.split('\n')) expect(line.length).toBeLessThanOrEqual(60);

    // Keys sent together reach the UI as one burst of text: each waits for the screen to follow.
    term.type('_app');
    await term.waitFor(/^ {4}demo_app/m, { visible: true });
    term.press('Tab');
    await term.waitFor('› Workers', { visible: true });
    term.type('12');
    await term.waitFor(/^ {4}12/m, { visible: true });
    term.press('Enter');
    await term.waitFor('! at most 8', { visible: true });
    term.press('BSpace');
    // The error goes as the field changes.
    const edited = await term.waitFor(/^ {4}1$/m, { visible: true });
    expect(edited).not.toContain('! at most 8');
    term.press('BSpace');
    await term.waitFor(/› Workers.*\n *\n {2}Private/, { visible: true });
    term.type('3');
    await term.waitFor(/^ {4}3/m, { visible: true });
    term.press('Tab');
    await term.waitFor('› Private', { visible: true });
    term.press('Space');
    await term.waitFor('● yes', { visible: true });
    term.press('Tab');
    await term.waitFor('› Colour', { visible: true });
    term.press('Right');
    await term.waitFor('● blue', { visible: true });
    term.press('Enter');
    await term.waitFor('Noted.');
    expect(toolResult()).toContain(
      'got {"action":"accept","content":{"name":"demo_app","workers":3,"private":true,"colour":"blue"}}',
    );
  });

  it('Esc declines the form', async () => {
    const { term, toolResult } = await askedInTerminal('form');
    await term.waitFor('Esc to decline', { visible: true });
    term.press('Escape');
    await term.waitFor('Noted.');
    expect(toolResult()).toContain('got {"action":"decline"}');
  });

  it('the Cancel button cancels it', async () => {
    const { term, toolResult } = await askedInTerminal('form');
    await term.waitFor('Esc to decline', { visible: true });
    // Up from the first field is the row of buttons: Submit, Decline, Cancel.
    term.press('Up', 'Right', 'Right', 'Enter');
    await term.waitFor('Noted.');
    expect(toolResult()).toContain('got {"action":"cancel"}');
  });
});

needs('tmux')('a server’s link in the UI', () => {
  it('shows where the link goes, opens it with $BROWSER, and notes when the server says it is done', async () => {
    const opened = join(tempDir('browser-'), 'opened');
    const browser = join(tempDir('browser-'), 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" > '${opened}'\n`);
    chmodSync(browser, 0o755);
    const { term, toolResult } = await askedInTerminal('link', { BROWSER: browser });
    const shown = await term.waitFor('Open this link', { visible: true });
    expect(shown).toContain('Connect your account to go on.');
    expect(shown).toContain('https://accounts.example.com/connect?session=42');
    expect(shown).toContain('It goes to accounts.example.com');
    term.press('Enter');
    await term.waitFor("the link's step is complete");
    await term.waitFor('Noted.');
    expect(toolResult()).toContain('got {"action":"accept"}');
    const url = await eventually(() => {
      try {
        return readFileSync(opened, 'utf8').trim();
      } catch {
        return undefined;
      }
    });
    expect(url).toBe('https://accounts.example.com/connect?session=42');
  });
});
