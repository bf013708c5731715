/**
 * The session's state and services behind the assistant and internal tools (brief, config,
 * repl, send_user_file, push_notification). Each is optional in a tool context: a tool says
 * plainly when the runtime running it has none.
 */

/** Concise-output mode (brief): the system prompt and the UI follow it. */
export interface BriefMode {
  readonly on: boolean;
  set(on: boolean): void;
}

/** One setting as the config tool shows it. */
export interface SettingView {
  key: string;
  value: unknown;
  /** Whether `config set` may change it during the session. */
  settable: boolean;
  /** Why it may not, when it may not. */
  why?: string;
}

/** The session's settings as the config tool sees and changes them. */
export interface SessionSettingsAccess {
  list(): SettingView[];
  /** A key's value, or undefined when lathe knows no such key. */
  get(key: string): SettingView | undefined;
  /** Why `value` may not be set at `key` (a security key, an unknown key, a bad value), or undefined. */
  problem(key: string, value: unknown): string | undefined;
  /** Sets a key checked with `problem`; returns the value before and after, as shown. */
  set(key: string, value: unknown): { before: unknown; after: unknown };
  /** The user answered every approval with yes (--yolo): a change need not ask. */
  readonly preApproved: boolean;
}

/** How a notification reached the user: each channel tried, and whether it worked. */
export interface NotificationDelivery {
  channel: 'osc9' | 'osc777' | 'notify-send' | 'bell';
  ok: boolean;
  /** Why it did not work. */
  error?: string;
}

/** Desktop and terminal notifications (push_notification). */
export interface Notifier {
  notify(title: string, body: string): Promise<NotificationDelivery[]>;
}

/** One run of code in the session's REPL. */
export interface ReplRun {
  /** The value of the code (its last expression, or what an awaiting body returned), shown. */
  value?: string;
  /** What the code printed with console.log / console.error. */
  output: string;
  /** The error the code threw, shown; or why the run was stopped. */
  error?: string;
  /** The REPL's state was lost (it was stopped past its timeout or memory cap); the next run starts fresh. */
  reset?: boolean;
}

/** The session's JavaScript REPL (repl): an isolated context kept between calls. */
export interface ReplAccess {
  run(
    code: string,
    options: {
      timeoutMs: number;
      signal: AbortSignal;
      /** Runs one of lathe's tools through the whole pipeline for the code's helpers. */
      callTool(name: string, input: unknown): Promise<{ isError: boolean; text: string }>;
    },
  ): Promise<ReplRun>;
}
