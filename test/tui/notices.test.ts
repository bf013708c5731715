import { afterEach, describe, expect, it } from 'vitest';
import { freshStatus, UiStore } from '../../src/tui/state/store.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const statusLine = (frame: string) => frame.trimEnd().split('\n').at(-1) ?? '';

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('notices that no longer apply', () => {
  it('a status-line notice ends by itself after its lifetime', async () => {
    const store = new UiStore(freshStatus());
    store.setHint('No command is running', 20);
    expect(store.getSnapshot().hint).toBe('No command is running');
    await until(() => store.getSnapshot().hint === undefined);
    store.setHint('first', 60_000);
    store.setHint('second', 20);
    await until(() => store.getSnapshot().hint === undefined);
  });

  it('a status-line notice is cleared by the next prompt', async () => {
    app = await renderApp([{ text: 'Hello back.' }]);
    app.write(KEYS.ctrlB);
    await app.waitFor('No command is running');
    await app.submit('hello');
    const shown = await app.waitFor('Hello back.');
    expect(statusLine(shown)).not.toContain('No command is running');
    expect(statusLine(shown)).toContain('shift+tab mode · /help');
  });

  it('the todo panel goes once every item is done and the run has ended', async () => {
    app = await renderApp(
      [
        {
          toolCalls: [
            {
              name: 'change_todo_list',
              input: { todos: [{ text: 'Read the code', status: 'in_progress' }] },
            },
          ],
        },
        {
          toolCalls: [
            { name: 'change_todo_list', input: { todos: [{ text: 'Read the code', status: 'completed' }] } },
          ],
        },
        { text: 'All done.' },
      ],
      { features: ['focus_chain'] },
    );
    await app.submit('work');
    await app.waitFor('Apply this todo list?');
    app.write('1');
    await app.waitFor('Todo 0/1');
    await app.waitFor('Apply this todo list?');
    app.write('1');
    await app.waitFor('All done.');
    await until(() => app?.session.store.getSnapshot().todo === undefined);
    expect(app.frame()).not.toMatch(/Todo \d\/\d/);
  });
});
