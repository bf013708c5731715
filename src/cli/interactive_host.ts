import { SettingsError } from '../config/settings_file.js';
import type { Effort } from '../config/types.js';
import { missingSetup } from '../provider/create_model.js';
import { ModelConfigError, parseModelSpec } from '../provider/model_spec.js';
import { createRuntime, RuntimeError } from '../runtime/create_runtime.js';
import { type PromptFlags, readImageFile, systemPromptFrom } from '../sdk/prompt_flags.js';
import {
  attachRuntimeServices,
  findResumePoint,
  loadResumePoint,
  modelNameFor,
  openSessionLog,
  setUpModel,
  withSessionSettings,
} from '../sdk/run_setup.js';
import { AmbiguousSessionError, findSession } from '../session/catalog.js';
import type { ConversationHost, SessionOptions } from '../tui/index.js';
import { type CommonOptions, runtimeOptionsFrom } from './commands/runtime_from_options.js';
import { UsageError } from './errors.js';

export interface InteractiveOptions extends CommonOptions, PromptFlags {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  resume?: string;
  continue?: boolean;
  fork?: string;
  /** false under `--no-session`. */
  session?: boolean;
  effort?: Effort;
  /** A prompt sent as soon as the UI is up (`lathe "fix the failing test"`). */
  prompt?: string;
}

/**
 * What the interactive UI's session runs on, built from the flags: the runtime, the models and
 * the session logs of a headless run, and the session `--resume` or `--continue` names. The UI
 * calls this after its first frame, so these modules load behind a prompt that is already up.
 */
export function interactiveSession(opts: InteractiveOptions): SessionOptions {
  const flags = runtimeOptionsFrom(opts);
  const resumed = findResumePoint(flags, opts);
  const choice = { forked: resumed, noSession: opts.session === false };
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
    missingSetup: (name) => missingSetupOf(name, endpoint),
    openLog: (runtime, resumePath, meta, onWriteError) =>
      openSessionLog(runtime, resumePath, meta, onWriteError, choice),
    findSession: (runtime, id) => {
      const found = findSession(runtime.documentsRoot, runtime.workspace, id);
      return found && loadResumePoint(found, runtime.workspace);
    },
    attach: attachRuntimeServices,
    systemPrompt: systemPromptFrom(opts),
    readImage: readImageFile,
  };
  return { host, resume: resumed, modelName: opts.model ?? resumed?.settings.model };
}

/** What a model still needs here, as `lathe --list-models` judges it, with the key and endpoint flags. */
function missingSetupOf(name: string, given: { apiKey?: string; baseUrl?: string }): string | undefined {
  try {
    return missingSetup(parseModelSpec(name).provider, process.env, given);
  } catch {
    return undefined;
  }
}

/** A mistake in how lathe was called (exit code 2), rather than a failure of lathe (1). */
export function isUsageError(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ModelConfigError ||
    error instanceof AmbiguousSessionError ||
    error instanceof RuntimeError ||
    error instanceof SettingsError
  );
}
