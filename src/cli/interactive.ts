import { join } from 'node:path';
import { documentsRoot } from '../config/paths.js';
import { SettingsError } from '../config/settings_file.js';
import type { Effort } from '../config/types.js';
import { ModelConfigError } from '../provider/model_spec.js';
import { createRuntime, RuntimeError } from '../runtime/create_runtime.js';
import { AmbiguousSessionError, findSession } from '../session/catalog.js';
import type { ConversationHost } from '../tui/index.js';
import { type CommonOptions, runtimeOptionsFrom } from './commands/runtime_from_options.js';
import { errorLine } from './errors.js';
import { type PromptFlags, readImageFile, systemPromptFrom } from './prompt_flags.js';
import {
  attachRuntimeServices,
  findResumePoint,
  loadResumePoint,
  modelNameFor,
  openSessionLog,
  RECORDED,
  setUpModel,
  UsageError,
  withSessionSettings,
} from './run_setup.js';

/**
 * React reads NODE_ENV once, when it loads, and without "production" it takes its development
 * build: several times slower, and it keeps a performance measure of every render, so memory
 * grows with the session. The variable is set only while the UI loads, so commands the agent
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

export interface InteractiveOptions extends CommonOptions, PromptFlags {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  resume?: string;
  continue?: boolean;
  effort?: Effort;
  /** A prompt sent as soon as the UI is up (`lathe "fix the failing test"`). */
  prompt?: string;
}

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
    const flags = runtimeOptionsFrom(opts);
    const resumed = findResumePoint(flags, opts);
    // A resumed session goes on with its own profile and mode unless the flags name others.
    const runtimeOptions = withSessionSettings(flags, resumed);
    const endpoint = { baseUrl: opts.baseUrl, apiKey: opts.apiKey, effort: opts.effort };
    const host: ConversationHost = {
      createRuntime: ({ sessionId, profile, mode, askUser }) =>
        createRuntime({
          ...runtimeOptions,
          sessionId,
          ...(profile ? { profile } : {}),
          ...(mode ? { mode } : {}),
          askUser,
        }),
      defaultModel: (runtime) => modelNameFor(runtime, opts.model),
      loadModel: (runtime, name) => setUpModel(runtime, name, endpoint),
      openLog: openSessionLog,
      findSession: (runtime, id) => {
        const found = findSession(runtime.documentsRoot, runtime.workspace, id);
        return found && loadResumePoint(found, runtime.workspace);
      },
      recorded: RECORDED,
      attach: attachRuntimeServices,
      systemPrompt: systemPromptFrom(opts),
      readImage: readImageFile,
    };
    const { runInteractiveUi } = await loadUi();
    return await runInteractiveUi({
      host,
      resume: resumed,
      modelName: opts.model ?? resumed?.settings.model,
      historyFile: join(documentsRoot(), 'history.jsonl'),
      initialPrompt: opts.prompt,
    });
  } catch (error) {
    const known =
      error instanceof UsageError ||
      error instanceof ModelConfigError ||
      error instanceof AmbiguousSessionError ||
      error instanceof RuntimeError ||
      error instanceof SettingsError;
    process.stderr.write(`lathe: ${errorLine(error)}\n`);
    return known ? 2 : 1;
  }
}
