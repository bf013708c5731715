import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter } from './support/lathe_terminal.js';
import type { TmuxTerminal } from './support/tmux.js';

// The built `lathe` in a real terminal (tmux): a command's 5,000 lines, expanded with Ctrl+O,
// then opened whole in the viewer or in $PAGER, and the session as it was after.

const start = latheStarter();
const LINES = 5000;
const PRINT = `i=1; while [ $i -le ${LINES} ]; do echo "line $i"; i=$((i+1)); done`;
const ALL = Array.from({ length: LINES }, (_, i) => `line ${i + 1}\n`).join('');

async function printedAndExpanded(env: Record<string, string> = {}) {
  const lathe = await start(
    [{ toolCalls: [{ name: 'execute_command', input: { command: PRINT } }] }, { text: 'Printed them all.' }],
    { args: ['--approve', 'executeAll'], env, size: { width: 100, height: 30 } },
  );
  const { term } = lathe;
  term.type('print the lines');
  term.press('Enter');
  await term.waitFor('Printed them all.');
  term.press('C-o');
  await term.waitFor(/… \d+ more lines \(ctrl\+g to view it all\)\n\s+the whole result:/, { visible: true });
  return { ...lathe, screen: term.screen(), scrollback: term.history() };
}

/** Waits until the screen is the one given (the conversation, as it was before the view). */
async function backTo(term: TmuxTerminal, screen: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (term.screen() !== screen) {
    if (Date.now() > deadline) throw new Error(`the screen did not come back; it shows:\n${term.screen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The rows of the viewer's text (every row but its footer). */
const body = (screen: string) => screen.replace(/\n$/, '').split('\n').slice(0, -1);

needs('tmux')('the whole result, from the expanded one', () => {
  it('pages through all 5,000 lines in the viewer and closes back to the session as it was', async () => {
    const { term, screen, scrollback } = await printedAndExpanded();
    term.press('C-g');
    let shown = await term.waitFor('q close', { visible: true });
    expect(body(shown)[0]).toBe('line 1');
    term.press('NPage');
    shown = await term.waitFor(/^line 29$/m, { visible: true });
    expect(body(shown)[0]).toBe('line 29');
    term.press('End');
    shown = await term.waitFor('(end)', { visible: true });
    expect(body(shown).at(-1)).toBe(`line ${LINES}`);
    expect(body(shown)[0]).toBe(`line ${LINES - 28}`);
    term.press('Up');
    shown = await term.waitFor(new RegExp(`^line ${LINES - 29}$`, 'm'), { visible: true });
    expect(body(shown).at(-1)).toBe(`line ${LINES - 1}`);
    term.press('Home');
    shown = await term.waitFor(/^line 1$/m, { visible: true });
    expect(body(shown)[1]).toBe('line 2');
    // A search goes to the next line that has the words, n to the one after.
    term.type('/LINE 432');
    term.press('Enter');
    shown = await term.waitFor('Not found: LINE 432', { visible: true });
    term.type('/line 432');
    term.press('Enter');
    shown = await term.waitFor(/^line 432$/m, { visible: true });
    expect(body(shown)[0]).toBe('line 432');
    term.type('n');
    shown = await term.waitFor(/^line 4320$/m, { visible: true });
    expect(body(shown)[0]).toBe('line 4320');
    term.type('N');
    shown = await term.waitFor(/^line 432$/m, { visible: true });
    expect(body(shown)[0]).toBe('line 432');
    term.type('q');
    await backTo(term, screen);
    expect(term.history()).toBe(scrollback);
    // The prompt takes keys as before.
    term.type('next');
    await term.waitFor('› next', { visible: true });
  });

  it('hands the whole result to $PAGER when it is set, then takes the terminal back', async () => {
    const record = join(tempDir('lathe-pager-'), 'got.txt');
    const { term, screen } = await printedAndExpanded({ PAGER: `cat > '${record}'` });
    term.press('C-g');
    await backTo(term, screen);
    expect(existsSync(record)).toBe(true);
    expect(readFileSync(record, 'utf8')).toBe(ALL);
    term.type('next');
    await term.waitFor('› next', { visible: true });
  });

  it('says so in one line when $PAGER cannot be started, and the session goes on', async () => {
    const { term } = await printedAndExpanded({ PAGER: 'no-such-pager-here' });
    term.press('C-g');
    await term.waitFor('The pager ($PAGER=no-such-pager-here) was not found', { visible: true });
    term.type('next');
    await term.waitFor('› next', { visible: true });
  });
});
