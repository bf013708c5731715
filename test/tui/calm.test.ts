import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { render } from 'ink';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { App } from '../../src/tui/components/app.js';
import { PromptHistory } from '../../src/tui/input/history.js';
import { stripAnsi } from '../../src/tui/render/style.js';
import { InteractiveSession } from '../../src/tui/session/controller.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** An 80×24 terminal that records what Ink writes, rendering as it does on a real TTY. */
class Terminal extends EventEmitter {
  columns = 80;
  rows = 24;
  isTTY = true;
  written = '';
  write(chunk: string) {
    this.written += chunk;
    return true;
  }
}

class Keyboard extends EventEmitter {
  isTTY = true;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => null;
}

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
});

function mount() {
  const cwd = tempDir();
  const session = new InteractiveSession({
    host: {
      createRuntime: ({ askUser }) => createRuntime({ cwd, documentsRoot: join(cwd, '.home'), askUser }),
      defaultModel: () => 'anthropic/claude-sonnet-4-5',
      loadModel: () => Promise.reject(new Error('no model here')),
      openLog: () => {
        throw new Error('no log here');
      },
      findSession: () => undefined,
      attach: (runtime) => () => runtime.dispose(),
    },
  });
  const terminal = new Terminal();
  const instance = render(createElement(App, { session, history: new PromptHistory() }), {
    stdout: terminal as unknown as NodeJS.WriteStream,
    stdin: new Keyboard() as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    // Every frame is written, none merged: what a slow terminal would see.
    maxFps: 1000,
  });
  unmount = () => instance.unmount();
  return { store: session.store, terminal };
}

const frame = () => new Promise((resolve) => setTimeout(resolve, 2));
const CLEAR_SCREEN = '\x1b[2J';

describe('calm rendering', () => {
  it('streams a reply far taller than the screen without ever clearing it', async () => {
    const { store, terminal } = mount();
    store.appendText('```ts\n');
    for (let i = 0; i < 300; i++) {
      store.appendText(`const line${i} = ${i}; // a long code block streamed token by token\n`);
      store.flush();
      await frame();
    }
    store.appendText('```\n\nDone.');
    store.endText();
    store.flush();
    await frame();
    expect(stripAnsi(terminal.written)).toContain('const line299 = 299;');
    expect(terminal.written).not.toContain(CLEAR_SCREEN);
  });

  it('shows a running command with a long output tail without clearing the screen', async () => {
    const { store, terminal } = mount();
    store.addTool({
      id: 't',
      name: 'execute_command',
      input: { command: 'npm test' },
      status: 'running',
      startedAt: Date.now(),
    });
    for (let i = 0; i < 100; i++) {
      store.updateTool('t', { tail: [`test ${i} passed`, `test ${i + 1} running`] });
      store.flush();
      await frame();
    }
    store.updateTool('t', { status: 'ok', elapsedMs: 1000, resultText: 'all passed\n\nExit code 0.' });
    store.flush();
    await frame();
    expect(stripAnsi(terminal.written)).toContain('test 99 passed');
    expect(stripAnsi(terminal.written)).toContain('✓ Run npm test  1.0s');
    expect(terminal.written).not.toContain(CLEAR_SCREEN);
  });

  it('prints each finished entry once', async () => {
    const { store, terminal } = mount();
    for (let i = 0; i < 150; i++) {
      store.add({ kind: 'notice', tone: 'info', text: `entry number ${i}` });
      store.flush();
      await frame();
    }
    const shown = stripAnsi(terminal.written);
    for (const i of [0, 64, 149])
      expect(shown.match(new RegExp(`entry number ${i}\\b`, 'g'))).toHaveLength(1);
  });
});
