import type { ApprovalCategory } from '../config/types.js';
import type { StickyAsk } from '../permission/types.js';
import type { SubagentTag } from './context/agents.js';
import type { ApprovalAnswerer } from './events.js';
import type { CallFacts } from './facts.js';
import type { Tool, ToolContext, ToolResult } from './types.js';

// The shapes of a call, its approval and its hooks: apart from run_call.ts so the permission
// step can name them without importing the code that calls it.

/** One tool call as the model made it; `input` may still be the raw JSON text. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

export interface ApprovalRequest {
  call: ToolCall;
  tool: Tool;
  input: unknown;
  /** What the parse step found (the parsed shell command), for the contract methods. */
  facts: CallFacts;
  reason: string;
  category?: ApprovalCategory;
  /** Set when the ask is one no rule can silence (protected path, Plan mode, no sandbox). */
  sticky?: StickyAsk;
  /** The child agent whose call this is; absent for the user's own agent. */
  agent?: SubagentTag;
}

export interface ApprovalAnswer {
  approved: boolean;
  /** Why the user said no, passed on to the model. */
  feedback?: string;
  /** The user stopped the run at this question (Esc) rather than answering it. */
  interrupted?: boolean;
  /**
   * Approved, but to run with this input instead (a program's `canUseTool`): it is validated,
   * and a deny of the rules still refuses it.
   */
  updatedInput?: Record<string, unknown>;
  /** Who answered (default: the user). */
  by?: Exclude<ApprovalAnswerer, 'hook'>;
}

/** How an ask was answered, and by whom (for the approval events clients see). */
export interface ApprovalVerdict {
  answer: 'allow' | 'deny' | 'interrupted';
  by: ApprovalAnswerer;
  reason?: string;
  inputChanged?: boolean;
}

/** Told of each ask and its answer, for the user's agent and its children alike. */
export interface ApprovalObserver {
  asked(request: ApprovalRequest): void;
  answered(request: ApprovalRequest, verdict: ApprovalVerdict): void;
}

/** What the hooks before a call decided (PreToolUse). */
export interface BeforeCallVerdict {
  /** The call is not run; the model reads why. */
  block?: string;
  /** `allow` answers an ask no rule made sticky; `ask` asks even where rules allow. */
  decision?: 'allow' | 'ask';
  /** The input the call runs with instead (validated and judged by permissions like the model's). */
  updatedInput?: Record<string, unknown>;
  /** Context for the model, given with the call's result. */
  additionalContext?: string;
  /** `continue: false`: the call is not run and the run stops, with this reason. */
  stop?: string;
}

/** What the hooks after a call said (PostToolUse, PostToolUseFailure). */
export interface AfterCallVerdict {
  /** Feedback for the model about the result (a hook's block: the call ran already). */
  feedback?: string;
  additionalContext?: string;
  stop?: string;
}

/**
 * Hooks around each call: the one place PreToolUse, PermissionRequest and PostToolUse(Failure)
 * hooks run, for the user's agent and its children alike.
 */
export interface CallHooks {
  /** Runs after validation, before permissions. */
  before?(call: ToolCall, tool: Tool, input: unknown): Promise<BeforeCallVerdict | undefined>;
  /**
   * Runs when a call would be asked about, before the user is (or, headless, before it is
   * refused): a decision answers in the user's place. `userAsked`: a person will be asked next.
   */
  permission?(
    request: ApprovalRequest,
    userAsked: boolean,
  ): Promise<{ behavior: 'allow' | 'deny'; reason?: string } | undefined>;
  /** Runs after a call that ran, its result budgeted. */
  after?(
    call: ToolCall,
    tool: Tool,
    input: unknown,
    result: ToolResult,
  ): Promise<AfterCallVerdict | undefined>;
}

export interface CallEnvironment {
  pool: readonly Tool[];
  context: Omit<ToolContext, 'signal'>;
  /** Asks the user; absent in headless runs, where an ask becomes a denial. */
  askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** Hears each ask and its answer. */
  approvals?: ApprovalObserver;
  hooks?: CallHooks;
  /**
   * Takes a checkpoint of the workspace before a call that may change files (`mayChangeFiles`):
   * of the files it names (`files`, absolute) when its tool names each, else of the whole tree;
   * returns a line for the result when none could be taken.
   */
  checkpoint?: (call: ToolCall, tool: Tool, input: unknown, files?: string[]) => Promise<string | undefined>;
  /** Hears a running call's progress (its tool's `ctx.progress`), told apart by call. */
  onProgress?: (call: ToolCall, message: string) => void;
}
