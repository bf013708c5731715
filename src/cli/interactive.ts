import { join, resolve } from 'node:path';
import { documentsRoot, keybindingsPath } from '../config/paths.js';
import { errorLine } from './errors.js';
import type { InteractiveOptions } from './interactive_host.js';

/**
 * React reads NODE_ENV once, when it loads, and without "production" it takes its development
 * build: several times slower, and it keeps a performance measure of every render, so memory
 * grows with the session. The built command holds the production build alone (scripts/bundle.mjs);
 * run from source, the variable picks it. It is set only while the UI loads, so commands the agent
 * runs never inherit it.
 */
async function loadUi(): Promise<typeof import('../tui/index.js')> {
  const unset = process.env.NODE_ENV === undefined;
  if (unset) process.env.NODE_ENV = 'production';
  // Ink decides once, at load, from CI variables, to render only a final frame; in a terminal
  // the UI must stay live whatever the environment says.
  const ci = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
  delete process.env.CI;
  delete process.env.CONTINUOUS_INTEGRATION;
  // Ink's layout engine reads its embedded WebAssembly through fetch() when there is one, which
  // loads Node's whole HTTP client before the first frame; without it, it decodes the bytes itself.
  const { fetch } = globalThis;
  Reflect.deleteProperty(globalThis, 'fetch');
  try {
    return await import('../tui/index.js');
  } finally {
    globalThis.fetch = fetch;
    if (unset) delete process.env.NODE_ENV;
    for (const [name, value] of Object.entries(ci)) if (value !== undefined) process.env[name] = value;
  }
}

export type { InteractiveOptions };

/**
 * `lathe` with no prompt: the interactive terminal UI, on the same runtime, models and session
 * logs as a headless run. Ink and React load only here, so other commands never pay for them.
 */
export async function runInteractive(opts: InteractiveOptions): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(
      'lathe: the interactive UI needs a terminal; to run a prompt from a script, use lathe -p "…"\n',
    );
    return 2;
  }
  try {
    const { runInteractiveUi } = await loadUi();
    return await runInteractiveUi({
      // The first frame shows what the flags say; settings and a resumed session may say more.
      preview: {
        cwd: resolve(opts.cwd ?? '.'),
        modelName: opts.model,
        mode: opts.mode,
        profile: opts.profile,
      },
      // The runtime, the models and the session logs load after the first frame.
      prepare: async () => (await import('./interactive_host.js')).interactiveSession(opts),
      historyFile: join(documentsRoot(), 'history.jsonl'),
      keybindingsFile: keybindingsPath(documentsRoot()),
      initialPrompt: opts.prompt,
    });
  } catch (error) {
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    const { isUsageError } = await import('./interactive_host.js');
    return isUsageError(error) ? 2 : 1;
  }
}
