import type { ApprovalCategory } from '../config/types.js';

/** Who answered an approval: a PermissionRequest hook, the program's canUseTool, the person, or a rule. */
export type ApprovalAnswerer = 'hook' | 'canUseTool' | 'user' | 'rule';

/** One item of the todo list change_todo_list keeps. */
export interface TodoItem {
  text: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/**
 * What a tool, or the pipeline running it, shows the user through the agent running it. The list is closed: each client (the
 * terminal UI, the headless printer, the session log) renders every kind, and a tool that needs a
 * new one adds it here.
 */
export type ToolEvent =
  /** A status line while the model works (working_respond). */
  | { type: 'working'; message: string }
  /** A plan presented for approval (make_plan, exit_plan_mode). */
  | { type: 'plan'; markdown: string }
  /** The end of a phase of the work (phase_report). */
  | { type: 'phase_report'; phase: string; markdown: string }
  /** A report saved to a file (generate_report). */
  | { type: 'report'; title: string; markdown: string; path: string }
  /** The approved todo list (change_todo_list). */
  | { type: 'todo'; items: TodoItem[] }
  /** Concise-output mode switched on or off (brief). */
  | { type: 'brief'; on: boolean }
  /** A file offered to the user (send_user_file); `path` as the workspace shows it. */
  | { type: 'user_file'; path: string; absolutePath: string; bytes: number; caption?: string }
  /** A notification sent to the user's desktop or terminal (push_notification). */
  | { type: 'notification'; title: string; body: string }
  /** A call waits for approval: the rules ask about it (`reason`, `category`). */
  | {
      type: 'approval_request';
      id: string;
      tool: string;
      /** The call as a person reads it (`Run npm test`, `Edit src/a.ts`). */
      inputSummary: string;
      reason: string;
      category?: ApprovalCategory;
    }
  /**
   * The approval's answer, and who gave it. A rule answers when no one can be asked (a denial)
   * or when Act mode runs with edits approved.
   */
  | {
      type: 'approval_answer';
      id: string;
      tool: string;
      answer: 'allow' | 'deny' | 'interrupted';
      by: ApprovalAnswerer;
      /** Why it was denied (the answerer's words), when it says. */
      reason?: string;
      /** Allowed with an input of the answerer's own. */
      inputChanged?: boolean;
    };
