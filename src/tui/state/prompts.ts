/** The questions the UI puts to the user, one at a time, each resolved with its answer. */

import type { ElicitationAnswer, ElicitedField } from '../../mcp/elicitation.js';

export type ApprovalScope = 'session' | 'project' | 'user';

export type ApprovalChoice =
  | { kind: 'yes' }
  | { kind: 'always'; scope: ApprovalScope }
  | { kind: 'no'; feedback?: string }
  /** Esc: no, and stop the current step. */
  | { kind: 'interrupt' };

export interface ApprovalData {
  kind: 'approval';
  /** The question, in the words of what the call does: `Edit src/app.ts?`, ``Run `npm test`?`` */
  title: string;
  /** Why it asks (the permission engine's reason). */
  reason: string;
  /** Rules that "don't ask again" adds; empty when asking again cannot be avoided (Plan mode, protected paths). */
  rules: string[];
  /** For execute_command: the parsed subcommands the rules cover. */
  subcommands: string[];
  /** Where a saved rule goes. */
  settingsFiles: Record<Exclude<ApprovalScope, 'session'>, string>;
}

export interface QuestionData {
  kind: 'question';
  question: string;
  options?: string[];
}

export interface ConfirmAnswer {
  approved: boolean;
  feedback?: string;
}

export interface ConfirmData {
  kind: 'confirm';
  confirm: 'plan' | 'phase' | 'todo';
  title: string;
}

export interface PickData {
  kind: 'pick';
  title: string;
  choices: Array<{ label: string; value: string; hint?: string }>;
}

/** An MCP server's form (elicitation): fields to fill in, answered accept, decline or cancel. */
export interface FormData {
  kind: 'form';
  server: string;
  message: string;
  fields: ElicitedField[];
}

type Answered<D, T> = D & { id: number; resolve(value: T): void; cancel(): void };

export type Prompt =
  | Answered<ApprovalData, ApprovalChoice>
  | Answered<QuestionData, string>
  | Answered<ConfirmData, ConfirmAnswer>
  | Answered<PickData, string | undefined>
  | Answered<FormData, ElicitationAnswer>;

/** A prompt as asked: its data and the answer an interrupt gives it. */
export type PromptRequest<T> = (ApprovalData | QuestionData | ConfirmData | PickData | FormData) & {
  cancelValue: T;
};
