import type { LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { ModelCapabilities } from '../provider/capabilities.js';
import type { AgentRuntime } from './agent_runtime.js';
import type { AgentEvent } from './events.js';
import type { ConversationMessage } from './model_stream.js';
import type { SpendBudget } from './run_limits.js';
import type { ModelSource } from './subagents/child_model.js';
import type { TreeBudget } from './subagents/tree_budget.js';

/** What the user side answers: the terminal UI asks a person, a headless run reads --answers. */
export interface UserSide {
  ask(question: string, options?: string[]): Promise<{ answer: string; present: boolean }>;
  confirm(request: { kind: 'plan' | 'phase' | 'todo'; title: string; body: string }): Promise<{
    approved: boolean;
    feedback?: string;
  }>;
}

export interface AgentOptions {
  /** Mail waiting for the agent (a team member's), read before each model request and sent as a note. */
  inbox?: () => Promise<string | undefined>;
  runtime: AgentRuntime;
  model: LanguageModelV3;
  modelName: string;
  capabilities: ModelCapabilities;
  user: UserSide;
  onEvent?: (event: AgentEvent) => void;
  /** Model requests per prompt before the run stops; none when not given (the loop guard still ends repetition). */
  maxTurns?: number;
  /** Tokens and dollars the run may spend: checked as each response's usage arrives and before each request. */
  budget?: SpendBudget;
  jsonSchema?: Record<string, unknown>;
  /** Retries of a failed request (429, 5xx, overloaded), with backoff from this base. */
  retries?: number;
  retryBaseMs?: number;
  /** Options passed to the provider with every request. */
  providerOptions?: SharedV3ProviderOptions;
  /** The user's own instructions: `replace` stands for lathe's, `append` follows the prompt. */
  systemPrompt?: { replace?: string; append?: string };
  /** Ask the provider to cache each request's prefix (default true); off only to measure it. */
  promptCache?: boolean;
  /** Earlier messages, when a session is resumed. */
  history?: ConversationMessage[];
  /** Every message added to the conversation, for the session log (resume replays them). */
  onMessage?: (message: ConversationMessage) => void;
  /** The conversation was replaced by a compacted one. */
  onCompacted?: (messages: ConversationMessage[]) => void;
  /** The environment for the system prompt, when the client started reading it early (`environmentDetails`). */
  environment?: Promise<string>;
  /** How this agent's children get their models and what all of them together may spend. */
  subagents?: SubagentOptions;
}

export interface SubagentOptions {
  /** The model of a child that names another one (a type's or a call's `model`). */
  models?: ModelSource;
  /** The spending of the whole tree of children, shared from the user's agent down. */
  tree?: TreeBudget;
}
