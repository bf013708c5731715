import type { ApprovalCategory, Mode, RuleAction } from '../config/types.js';
import type { Subcommand } from './shell/types.js';

export type { ApprovalCategory, RuleAction };

/** The permission facts a tool exposes about one call; the engine decides from them. */
export interface PermissionSubject {
  kind: 'read' | 'edit' | 'execute' | 'browser' | 'web' | 'mcp' | 'subagents' | 'todo' | 'none';
  /** Paths the call touches, as given (relative to cwd or absolute). */
  paths?: string[];
  /** Shell subcommands, URL hosts or MCP `server__tool` names that rules are matched against. */
  subjects?: string[];
  /**
   * For shell commands, the files each subject (same index) writes through redirections: an
   * allow rule covers such a subcommand only when its pattern names every one of them.
   */
  writes?: string[][];
  /** A shell command that is wholly read-only (decides executeSafe vs executeAll). */
  readOnlyCommand?: boolean;
  /**
   * A shell command's parsed subcommands: the engine looks at the paths they name (deny rules,
   * protected paths, reads outside the workspace), the repository git would use and the network.
   */
  commands?: Subcommand[];
  /** Why a shell command could not be parsed: it asks, and the ask says so. */
  unparsed?: string;
  /** The folder a shell command runs in, when not the working folder. */
  cwd?: string;
  /** The plan file: writable in Plan mode. */
  planFile?: boolean;
}

/**
 * Why an ask is one no rule, --approve or --yolo can silence: a protected path, Plan mode, or a
 * command that would run without the sandbox it should have.
 */
export type StickyAsk = 'protected' | 'plan' | 'sandbox';

export type PermissionDecision =
  | { behavior: 'allow' }
  | {
      behavior: 'ask';
      reason: string;
      category?: ApprovalCategory;
      /** How it could be approved with no one to ask, when --approve / --yolo cannot (protected paths, Plan mode). */
      hint?: string;
      /** Set when only a person's yes, each time, lets the call run: "don't ask again" cannot apply. */
      sticky?: StickyAsk;
    }
  | { behavior: 'deny'; reason: string };

/**
 * The tools whose path rules guard a path for every tool and command, by name: those that read or
 * search (`read_file(.env)` guards reading) and those that change files (`write_to_file(secrets/**)`
 * guards writing). The tools' declarations say which they are.
 */
export interface PathRuleTools {
  reading: readonly string[];
  writing: readonly string[];
  /** The tools that run shell commands: their allow rules are checked for being broader than they look. */
  commands?: readonly string[];
}

/** A rule `{tool, pattern, action}`; `pattern` undefined means the whole tool. */
export interface PermissionRule {
  tool: string;
  pattern?: string;
  action: RuleAction;
  /** Where the rule was written (for messages). */
  source: string;
}

/** Rules as settings files write them, by action: `{ allow: ['execute_command(npm test)'] }`. */
export type RuleLists = Partial<Record<RuleAction, readonly string[]>>;

/** What the engine is asked about one call. */
export interface PermissionQuery {
  tool: string;
  /**
   * Whether the call leaves the workspace alone for this input: the tool's Plan-mode allowance,
   * which is its readOnly flag unless it declares otherwise.
   */
  readOnly: boolean;
  subject: PermissionSubject;
  /** Tools Strict Plan Mode refuses outright. */
  strictPlanRefused: boolean;
}

export interface PermissionEngine {
  readonly mode: Mode;
  setMode(mode: Mode): void;
  decide(query: PermissionQuery): PermissionDecision;
  /** A tool-wide deny rule removes the tool from the pool. */
  isToolDenied(tool: string): boolean;
  /**
   * What `decide` says of one call of `tool` that reads (or edits) only `path`: for tools that reach
   * many files (search results, the files a glob matches) to check each one.
   */
  decidePath(tool: string, access: 'read' | 'edit', path: string): PermissionDecision;
  /**
   * The patterns of the deny rules that guard reading (`read_file(.env)`, `read_file(secrets/**)`): relative ones are
   * relative to the workspace, `~/` is the home folder. The files they match are closed to every
   * tool and command.
   */
  readDenyPatterns(): string[];
}
