import type { HookCommand, HookEventName, HookGroup } from '../config/hooks/types.js';
import { compileMatcher, type Matcher } from './matcher.js';
import { runHookProcess } from './run_hook.js';
import { runHookFunction } from './run_hook_function.js';
import { emptyVerdict, type HookVerdict, mergeVerdicts, readHookExit } from './verdict.js';

/** Events where a hook's block means something; elsewhere its stderr is a line for the user. */
const BLOCKABLE: ReadonlySet<HookEventName> = new Set([
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStop',
]);

export interface HookSetOptions {
  sessionId: string;
  workspace: string;
  /** Where the session works now (it follows enter_worktree). */
  cwd: () => string;
  env: NodeJS.ProcessEnv;
}

/** One event to run the hooks of. */
export interface HookEvent {
  event: HookEventName;
  /** The names the matchers are tried against (a tool's names, an agent type, a source); none: every hook. */
  names?: readonly string[];
  /** The event's own fields for the hook's stdin (`tool_name`, `tool_input`, `prompt`, …). */
  fields: Record<string, unknown>;
  /** Shown in warnings after the event name: the tool or agent it is about. */
  about?: string;
  /** The folder of the agent the event is about (a child in its own worktree); default the session's. */
  cwd?: string;
  signal?: AbortSignal;
}

interface CompiledGroup extends HookGroup {
  compiled: Matcher;
}

/**
 * The session's hooks, from every settings file that names some: run at their events with the
 * event's JSON on stdin, each in its own process group, all of an event's matching hooks at
 * once. A failing hook's line goes to the listeners (`onWarning`): the UI and the headless
 * runner show it.
 */
export class HookSet {
  private readonly groups: CompiledGroup[];
  private readonly listeners = new Set<(line: string) => void>();
  /** Lines no listener was there to take. */
  readonly unheard: string[] = [];
  /** Matchers that did not compile, found when the hooks were loaded. */
  readonly problems: string[];

  constructor(
    groups: readonly HookGroup[],
    private readonly options: HookSetOptions,
  ) {
    this.groups = groups.map((group) => ({ ...group, compiled: compileMatcher(group.matcher) }));
    this.problems = this.groups
      .filter((g) => g.compiled.problem)
      .map((g) => `${g.source}: hooks.${g.event}: ${g.compiled.problem}`);
  }

  /** Every hook, in the order of the settings files, for `/hooks`. */
  list(): readonly HookGroup[] {
    return this.groups;
  }

  /** Whether any hook is set for the event (nothing else is done for an event without one). */
  has(event: HookEventName): boolean {
    return this.groups.some((g) => g.event === event);
  }

  /** Shows the lines hooks have for the user; returns the function that stops it. */
  onWarning(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    for (const line of this.unheard.splice(0)) listener(line);
    return () => this.listeners.delete(listener);
  }

  private warn(line: string): void {
    if (this.listeners.size === 0) this.unheard.push(line);
    for (const listener of this.listeners) listener(line);
  }

  /** The hooks an event runs: those whose matcher covers one of its names, each command once. */
  matching(event: HookEventName, names?: readonly string[]): HookCommand[] {
    const seen = new Set<unknown>();
    const hooks: HookCommand[] = [];
    for (const group of this.groups) {
      if (group.event !== event) continue;
      if (names && !group.compiled.matches(names)) continue;
      for (const hook of group.hooks) {
        // A program's function is itself; commands are the same when their text is.
        const key = hook.run ?? hook.command;
        if (seen.has(key)) continue;
        seen.add(key);
        hooks.push(hook);
      }
    }
    return hooks;
  }

  /** Runs the event's matching hooks and returns what they decided together. */
  async run(request: HookEvent): Promise<HookVerdict> {
    const hooks = this.matching(request.event, request.names);
    if (hooks.length === 0) return emptyVerdict();
    const cwd = request.cwd ?? this.options.cwd();
    const fields = {
      session_id: this.options.sessionId,
      cwd,
      hook_event_name: request.event,
      ...request.fields,
    };
    const input = `${JSON.stringify(fields)}\n`;
    const env = {
      ...this.options.env,
      LATHE_PROJECT_DIR: this.options.workspace,
      CLAUDE_PROJECT_DIR: this.options.workspace,
      LATHE_SESSION_ID: this.options.sessionId,
    };
    const label = request.about ? `${request.event} ${request.about}` : request.event;
    const verdicts = await Promise.all(
      hooks.map(async (hook) => {
        const exit = hook.run
          ? await runHookFunction(hook.run, fields, hook.timeoutSeconds, request.signal)
          : await runHookProcess({
              command: hook.command,
              input,
              cwd,
              env,
              timeoutSeconds: hook.timeoutSeconds,
              signal: request.signal,
            });
        return readHookExit(exit, hook, request.event, label);
      }),
    );
    const verdict = mergeVerdicts(verdicts);
    if (verdict.block && !BLOCKABLE.has(request.event)) {
      verdict.warnings.push(`${label} hook: ${verdict.block}`);
      delete verdict.block;
    }
    for (const line of verdict.warnings) this.warn(line);
    return verdict;
  }
}
