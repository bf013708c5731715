/** The events a hook can run at, in the order a session meets them. */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'Notification',
  'Stop',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

/** Seconds a hook may run before its process group is killed. */
export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/** One hook command, as settings name it. */
export interface HookCommand {
  /** A shell command line, run with `sh -c` in the workspace. */
  command: string;
  /** Seconds before the hook's process group is killed (default 60). */
  timeoutSeconds: number;
  /** A hook that fails (exit code other than 0 and 2, timeout, crash, invalid JSON) blocks. */
  failClosed: boolean;
  /**
   * A program's hook (the SDK's `hooks` option) runs this function instead of `command`, which
   * then only names it: it gets the JSON a command reads on stdin and returns what one prints.
   */
  run?: HookFunction;
}

/** A hook as a function: the event's fields in, the hook's JSON answer (or nothing) out. */
export type HookFunction = (input: Record<string, unknown>, options: { signal: AbortSignal }) => unknown;

/** A matcher and the hooks that run when it matches, from one settings file. */
export interface HookGroup {
  event: HookEventName;
  /** A tool name, a regular expression, or empty / `*` for every one. */
  matcher: string;
  hooks: HookCommand[];
  /** The settings file it comes from. */
  source: string;
}
