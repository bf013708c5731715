import type { AgentLimits } from '../../config/agent_limits.js';
import type { AgentType } from '../../config/agent_types/index.js';
import { agentSessionsDir } from '../../session/ids.js';
import { SessionLog } from '../../session/log.js';
import type { SubagentReport, SubagentStatus, SubagentTag } from '../../tool/context/agents.js';
import type { AgentOptions, UserSide } from '../agent_options.js';
import type { AgentRuntime, IsolatedPlace } from '../agent_runtime.js';
import type { AgentEvent, AgentOutcome } from '../events.js';
import type { ConversationMessage } from '../model_stream.js';
import { recordAgentEvent, recordCompaction, recordMessage } from '../session_record.js';
import type { ChildModel } from './child_model.js';
import type { ChildOutput } from './child_output.js';
import { childInstructions } from './child_prompt.js';
import { isolatedPlace } from './isolation.js';
import { childLogPath } from './stored_child.js';
import { toolChoice } from './tool_choice.js';
import type { TreeBudget } from './tree_budget.js';

/** What the manager needs of a running agent (the Agent class, seen structurally). */
export interface ChildAgent {
  send(prompt: string, signal?: AbortSignal): Promise<AgentOutcome>;
  notify(text: string): void;
}

/** Makes a child's agent (the parent passes `new Agent`: this layer's files do not import it back). */
export type StartAgent = (options: AgentOptions) => ChildAgent;

/** What a child takes from its parent. */
export interface ParentSide {
  runtime: AgentRuntime;
  emit(event: AgentEvent): void;
  /** The parent's environment text (read once: a child spawns no process for it). */
  environment(): Promise<string>;
  startAgent: StartAgent;
  /** Retries, prompt caching, the tree budget and model source: the same for the child. */
  agentOptions: Pick<AgentOptions, 'retries' | 'retryBaseMs' | 'promptCache' | 'subagents'>;
}

export interface ChildRunOptions {
  tag: SubagentTag;
  type: AgentType;
  prompt: string;
  parent: ParentSide;
  model: ChildModel;
  /** The parent's model: a child on another one gets its capabilities. */
  parentModelName: string;
  /** The conversation it starts from: empty, the parent's (fork), or its own (resume). */
  history: ConversationMessage[];
  /** The log of the child being resumed; a new child gets a new log. */
  resumeLog?: string;
  /** It works in a git worktree of its own, made when it starts and left when it ends. */
  isolated?: boolean;
  limits: AgentLimits;
  tree: TreeBudget;
  /** A background child's output file. */
  output?: ChildOutput;
}

/** A child's side of questions: no one to ask, so it decides; phases are acknowledged. */
const CHILD_USER: UserSide = {
  ask: async () => ({
    answer: 'No user is present to a subagent. Decide using the most reasonable assumption and say which.',
    present: false,
  }),
  confirm: async (request) =>
    request.kind === 'phase'
      ? { approved: true }
      : { approved: false, feedback: 'a subagent cannot ask the user' },
};

/** One child agent, run to its end within its budgets: its log, its events (tagged for the parent), its report. */
export class ChildRun {
  readonly logPath: string;
  private readonly controller = new AbortController();
  private stopReason?: { status: 'budget_exhausted' | 'interrupted'; why: string };
  private agent?: ChildAgent;
  private toolCalls = 0;
  private tokens = 0;
  /** What the child said last: a finished turn's text, or the turn streaming now. */
  private lastText = '';
  private streaming = '';

  constructor(private readonly options: ChildRunOptions) {
    const { runtime } = options.parent;
    this.logPath =
      options.resumeLog ?? childLogPath(runtime.documentsRoot, runtime.workspace, options.tag.id);
  }

  /** Stops the child; it ends `interrupted` (the user, task_stop, the parent's end) with what it had said. */
  stop(why = 'stopped'): void {
    this.stopReason ??= { status: 'interrupted', why };
    this.controller.abort();
  }

  /** A note for the child's model before its next request (a message from its parent). */
  notify(text: string): boolean {
    if (!this.agent) return false;
    this.agent.notify(text);
    return true;
  }

  /**
   * Runs the child to its end. Setting it up (its runtime, its log) may throw, before anything
   * runs; once it runs, every end is a report.
   */
  async run(signal?: AbortSignal): Promise<SubagentReport> {
    const { tag, limits, tree } = this.options;
    const started = Date.now();
    const isolated = this.options.isolated
      ? await isolatedPlace(this.options.parent.runtime, tag)
      : undefined;
    const { agent, log } = this.start(isolated);
    const onAbort = () => this.stop('the parent was interrupted');
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    tree.started(tag.id);
    const leaveTeams = this.options.parent.runtime.teamMembers?.markRunning(tag.name);
    const timer = setTimeout(
      () => this.exhaust(`its time budget of ${seconds(limits.maxMs)} (agents.maxSeconds)`),
      limits.maxMs,
    );
    timer.unref();
    const refused = tree.exhausted();
    if (refused) this.exhaust(refused);
    let outcome: AgentOutcome;
    try {
      outcome = await agent.send(this.options.prompt, this.controller.signal);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      tree.ended(tag.id);
      leaveTeams?.();
    }
    const report = this.report(outcome, Date.now() - started);
    if (isolated) report.worktree = await leave(isolated);
    log.append({ type: 'session_end', reason: outcome.kind, status: report.status, usage: outcome.usage });
    log.close();
    this.options.output?.end(report);
    return report;
  }

  /** The child's runtime, session log and agent. */
  private start(isolated?: IsolatedPlace): { agent: ChildAgent; log: SessionLog } {
    const { tag, type, parent, model, limits } = this.options;
    const runtime = parent.runtime.child!({
      tag,
      keepTool: toolChoice(type),
      worktree: isolated?.worktree,
      ...(model.modelName === this.options.parentModelName ? {} : { capabilities: model.capabilities }),
    });
    const log = this.openLog();
    const agent = parent.startAgent({
      ...parent.agentOptions,
      runtime,
      model: model.model,
      modelName: model.modelName,
      capabilities: model.capabilities,
      providerOptions: model.providerOptions,
      user: CHILD_USER,
      maxTurns: Math.min(type.maxTurns ?? limits.maxTurns, limits.maxTurns),
      systemPrompt: { replace: childInstructions(type) },
      history: this.options.history,
      environment: parent.environment(),
      inbox: runtime.teamMembers && (() => runtime.teamMembers!.takeMail(tag.name)),
      onEvent: (event) => this.onEvent(event, log),
      onMessage: (message) => recordMessage(log, message),
      onCompacted: (messages) => recordCompaction(log, messages),
    });
    this.agent = agent;
    return { agent, log };
  }

  private openLog(): SessionLog {
    const { tag, type, parent, model, prompt, resumeLog } = this.options;
    const meta = {
      model: model.modelName,
      profile: parent.runtime.conditions.profile,
      mode: parent.runtime.conditions.mode,
      prompt,
      agent: { ...tag, description: tag.name, parentSessionId: parent.runtime.sessionId },
      agentType: type.name,
    };
    if (resumeLog) return SessionLog.open(resumeLog, { meta });
    const { documentsRoot, workspace } = parent.runtime;
    return SessionLog.create({
      documentsRoot,
      workspace,
      id: tag.id,
      dir: agentSessionsDir(documentsRoot, workspace),
      meta,
    });
  }

  /** Ends the child for a budget: `budget_exhausted`, its partial text kept. */
  private exhaust(why: string): void {
    this.stopReason ??= { status: 'budget_exhausted', why };
    this.controller.abort();
  }

  private onEvent(event: AgentEvent, log: SessionLog): void {
    recordAgentEvent(log, event);
    this.options.output?.event(event);
    if (event.type === 'request_start') this.streaming = '';
    else if (event.type === 'text_delta') this.streaming += event.text;
    else if (event.type === 'assistant_text') {
      this.lastText = event.text;
      this.streaming = '';
    } else if (event.type === 'tool_call') this.toolCalls++;
    else if (event.type === 'usage') this.account(event.usage.inputTokens + event.usage.outputTokens);
    this.options.parent.emit({ type: 'subagent', child: this.options.tag, event: this.asParentSees(event) });
  }

  /**
   * A child its token or time budget stopped ends "aborted" in its own eyes; the parent's clients
   * read a child's end from its `done`, so it reaches them as a budget's end (`max_turns`).
   */
  private asParentSees(event: AgentEvent): AgentEvent {
    if (event.type !== 'done' || this.stopReason?.status !== 'budget_exhausted') return event;
    return { type: 'done', outcome: { ...event.outcome, kind: 'max_turns' } };
  }

  /** Counts a child's tokens (its running total) against its budget and the tree's. */
  private account(total: number): void {
    const { limits, tree } = this.options;
    tree.addTokens(total - this.tokens);
    this.tokens = total;
    if (total >= limits.maxTokens)
      this.exhaust(
        `its token budget of ${limits.maxTokens.toLocaleString('en-US')} tokens (agents.maxTokens)`,
      );
    const treeReason = tree.exhausted();
    if (treeReason) this.exhaust(treeReason);
  }

  private report(outcome: AgentOutcome, ms: number): SubagentReport {
    const { tag } = this.options;
    const partial = (this.streaming || this.lastText).trim();
    let status: SubagentStatus;
    let text: string;
    if (outcome.kind === 'max_turns') {
      status = 'budget_exhausted';
      text = withNote(
        partial,
        `Stopped: it reached its limit of ${outcome.turns} model requests (agents.maxTurns).`,
      );
    } else if (outcome.kind === 'aborted' && this.stopReason) {
      status = this.stopReason.status;
      const what = status === 'budget_exhausted' ? `it reached ${this.stopReason.why}` : this.stopReason.why;
      text = withNote(partial, `Stopped: ${what}.`);
    } else if (outcome.kind === 'aborted') {
      status = 'interrupted';
      text = withNote(partial, 'Stopped: interrupted.');
    } else if (outcome.kind === 'error') {
      status = 'failed';
      text = outcome.text;
    } else {
      status = 'completed';
      text = outcome.text;
    }
    return {
      id: tag.id,
      name: tag.name,
      type: tag.type,
      status,
      text,
      usage: {
        inputTokens: outcome.usage.inputTokens,
        outputTokens: outcome.usage.outputTokens,
        toolCalls: this.toolCalls,
        ms,
        ...(outcome.costUsd !== undefined ? { costUsd: outcome.costUsd } : {}),
      },
      sessionId: tag.id,
      logPath: this.logPath,
    };
  }
}

/** Leaves a child's worktree: its work committed on the branch, or nothing left when it changed nothing. */
async function leave(isolated: IsolatedPlace): Promise<SubagentReport['worktree']> {
  const { branch, dir } = isolated.worktree;
  try {
    const finished = await isolated.finish();
    if (finished.outcome === 'removed')
      return { branch, dir, diffstat: 'no changes: the worktree and its branch were removed' };
    return { branch, dir, ...(finished.diffstat ? { diffstat: finished.diffstat } : {}) };
  } catch (error) {
    return { branch, dir, diffstat: `the worktree was left as it is: ${(error as Error).message}` };
  }
}

export function seconds(ms: number): string {
  return ms < 10_000 ? `${Number((ms / 1000).toFixed(2))} s` : `${Math.round(ms / 1000)} s`;
}

function withNote(partial: string, note: string): string {
  return partial ? `${partial}\n\n[${note}]` : `[${note}]`;
}
