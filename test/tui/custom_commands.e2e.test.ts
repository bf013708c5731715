import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter } from './support/lathe_terminal.js';

// Custom commands and workflows typed in the interactive UI: the built `lathe` in tmux, against
// the fake model server, in a trusted copy of the command fixtures.

const start = latheStarter();
const FIXTURES = fileURLToPath(new URL('../fixtures/commands/workspace', import.meta.url));

const done = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] });

function workspace(): string {
  const dir = tempDir('lathe-commands-');
  cpSync(FIXTURES, dir, { recursive: true });
  return dir;
}

needs('tmux')('/name args in the UI', () => {
  it('sends the expanded command; the conversation shows it as typed', async () => {
    const { term, requests } = await start([done('Hello sent.')], { dir: workspace(), args: ['--trust'] });
    term.type('/greet Ada');
    term.press('Enter');
    await term.waitFor('Hello sent.');
    expect(requests()[0].lastUserText).toBe('Say hello to Ada, politely.');
    expect(term.history()).toContain('/greet Ada');
  });

  it('runs a TOML command’s !{…} part and sends its output', async () => {
    const { term, requests } = await start([done('Reviewed.')], { dir: workspace(), args: ['--trust'] });
    term.type('/review x; touch marker');
    term.press('Enter');
    await term.waitFor('Reviewed.');
    expect(requests()[0].lastUserText).toContain('Echoed: x; touch marker\n');
  });

  it('Tab completes a custom command and a namespaced one', async () => {
    const { term, requests } = await start([done('Committed.')], { dir: workspace(), args: ['--trust'] });
    // The prompt takes keys while the session loads; the commands Tab completes come with it.
    await term.waitFor('0/200k', { visible: true });
    term.type('/git:c');
    await term.waitFor('› /git:c', { visible: true });
    term.press('Tab');
    await term.waitFor('› /git:commit', { visible: true });
    term.type('src "a message"');
    term.press('Enter');
    await term.waitFor('Committed.');
    expect(requests()[0].lastUserText).toBe('Commit the staged files of src with the message "a message".');
    // haiku: the prompt runs on the provider's small model, and the session's comes back after it.
    expect(requests()[0].body.model).toBe('claude-haiku-4-5');
  });

  it('an untrusted folder says its commands wait for trust, and /greet is unknown', async () => {
    const { term, requests } = await start([done('unused')], { dir: workspace() });
    await term.waitFor('11 workspace commands and workflows wait for trust');
    term.type('/greet Ada');
    term.press('Enter');
    await term.waitFor('Unknown command /greet. /help lists them.');
    expect(requests()).toHaveLength(0);
  });
});
