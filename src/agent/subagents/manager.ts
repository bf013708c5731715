import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type AgentType, SMALL_MODEL } from '../../config/agent_types/index.js';
import { smallModelOf } from '../../provider/small_model.js';
import type {
  AgentTypeSummary,
  SubagentAccess,
  SubagentReport,
  SubagentRequest,
  SubagentTag,
} from '../../tool/context/agents.js';
import type { RecipientSource } from '../../tool/context/messages.js';
import type { SubagentSetup } from '../agent_runtime.js';
import type { ConversationMessage } from '../model_stream.js';
import { backgroundTask, endNote, taskStatusOf } from './background.js';
import type { ChildModel, ModelSource } from './child_model.js';
import { ChildOutput } from './child_output.js';
import { ChildRun, type ParentSide } from './child_run.js';
import { wantsWorktree } from './isolation.js';
import { childRecipients, type KnownChild } from './recipients.js';
import { Slots } from './slots.js';
import { childLogPath, readStoredChild } from './stored_child.js';
import type { TreeBudget } from './tree_budget.js';

export interface ManagerOptions {
  parent: ParentSide;
  setup: SubagentSetup;
  /** The parent's own model: a child runs it unless its type or call names another. */
  model: ChildModel;
  models: ModelSource;
  tree: TreeBudget;
  /** The parent's conversation, copied for a fork. */
  conversation(): readonly ConversationMessage[];
  /** Tells the parent's model something before its next request (a background child ended). */
  notify(text: string): void;
}

/** A child about to start: everything checked, nothing started yet. */
interface Plan {
  request: SubagentRequest;
  tag: SubagentTag;
  type: AgentType;
  model: ChildModel;
  history: ConversationMessage[];
  resumeLog?: string;
  /** It works in a git worktree of its own. */
  isolated: boolean;
}

const newChildId = () => `agent_${randomBytes(4).toString('hex')}`;

/**
 * The children of one agent: started in this process as agents of their own against child
 * runtimes, at most `agents.concurrency` at once, within their budgets; each request checked
 * before any child starts, so a bad one starts nothing.
 */
export class SubagentManager implements SubagentAccess {
  private readonly slots: Slots;
  private readonly children = new Map<string, KnownChild>();

  constructor(private readonly options: ManagerOptions) {
    this.slots = new Slots(options.setup.limits.concurrency);
  }

  get depth(): number {
    return this.options.setup.depth;
  }

  get maxDepth(): number {
    return this.options.setup.limits.maxDepth;
  }

  types(): AgentTypeSummary[] {
    return this.options.setup.types.map((t) => ({
      name: t.name,
      description: t.description,
      ...(t.readOnly ? { readOnly: true } : {}),
    }));
  }

  /** This agent's children as send_message recipients. */
  recipients(): RecipientSource {
    return childRecipients(() => this.children.values());
  }

  async run(requests: readonly SubagentRequest[], signal: AbortSignal): Promise<SubagentReport[]> {
    const plans: Plan[] = [];
    for (const request of requests) plans.push(await this.plan(request, plans));
    return Promise.all(
      plans.map((plan) => (plan.request.background ? this.background(plan) : this.foreground(plan, signal))),
    );
  }

  /** Checks one request and settles what its child will be; throws an Error the model can act on. */
  private async plan(request: SubagentRequest, earlier: readonly Plan[]): Promise<Plan> {
    const { setup, tree } = this.options;
    if (this.depth >= this.maxDepth)
      throw new Error(
        `No child started: this agent is at depth ${this.depth} and children may nest only ${this.maxDepth} deep (agents.maxDepth). Do the work yourself.`,
      );
    if (!request.prompt?.trim())
      throw new Error('No child started: the prompt is empty; say what the child should do.');
    if (request.fork && request.resume)
      throw new Error(
        'No child started: fork and resume do not go together (a resumed child has its own conversation).',
      );
    const treeProblem = tree.exhausted();
    if (treeProblem) throw new Error(`No child started: ${treeProblem}.`);

    const stored = request.resume ? this.resumable(request.resume, earlier) : undefined;
    const typeName = stored?.type ?? request.type ?? 'general';
    if (stored && request.type && request.type !== stored.type)
      throw new Error(
        `No child started: ${stored.id} is a ${stored.type} agent; leave type out to resume it.`,
      );
    const type = setup.types.find((t) => t.name === typeName);
    if (!type)
      throw new Error(
        `Unknown agent type "${typeName}". Valid types: ${setup.types.map((t) => t.name).join(', ')}.`,
      );
    const tag: SubagentTag = {
      id: stored?.id ?? newChildId(),
      name: request.description || stored?.name || typeName,
      type: type.name,
      depth: this.depth + 1,
    };
    const history = stored ? stored.history : request.fork ? [...this.options.conversation()] : [];
    return {
      request,
      tag,
      type,
      model: await this.modelFor(request, type),
      history,
      resumeLog: stored?.logPath,
      isolated: wantsWorktree(request, type),
    };
  }

  /** The child `resume` names, read from its log; not one running now or twice in a batch. */
  private resumable(id: string, earlier: readonly Plan[]) {
    const known = this.children.get(id);
    if (known?.status === 'running' || earlier.some((p) => p.tag.id === id))
      throw new Error(`No child started: ${id} is still running; wait for it or stop it with task_stop.`);
    const { runtime } = this.options.parent;
    try {
      return readStoredChild(runtime.documentsRoot, runtime.workspace, id);
    } catch (error) {
      throw new Error(`No child started: ${(error as Error).message}`);
    }
  }

  private async modelFor(request: SubagentRequest, type: AgentType): Promise<ChildModel> {
    const parent = this.options.model;
    const wanted = request.model ?? type.model;
    if (wanted === SMALL_MODEL) {
      // A hint: the provider's small fast model, else (none, or it cannot load) the parent's.
      const small = smallModelOf(parent.modelName);
      if (!small || small === parent.modelName) return parent;
      return this.options.models(small).catch(() => parent);
    }
    const name = wanted;
    if (!name || name === parent.modelName) return parent;
    try {
      return await this.options.models(name);
    } catch (error) {
      throw new Error(`No child started: model ${name}: ${(error as Error).message}`);
    }
  }

  private childRun(plan: Plan, output?: ChildOutput): ChildRun {
    const { parent, setup, tree, model } = this.options;
    return new ChildRun({
      tag: plan.tag,
      type: plan.type,
      prompt: plan.request.prompt,
      parent,
      model: plan.model,
      parentModelName: model.modelName,
      history: plan.history,
      resumeLog: plan.resumeLog,
      isolated: plan.isolated,
      limits: setup.limits,
      tree,
      output,
    });
  }

  /** Runs a child once a place is free; the call's interrupt stops it. */
  private async foreground(plan: Plan, signal: AbortSignal): Promise<SubagentReport> {
    const known: KnownChild = { tag: plan.tag, status: 'waiting' };
    this.children.set(plan.tag.id, known);
    const release = await this.slots.acquire(signal);
    if (!release) {
      known.status = 'interrupted';
      return this.notStarted(plan, 'Interrupted before it started.');
    }
    try {
      known.run = this.childRun(plan);
      known.status = 'running';
      const report = await known.run.run(signal).catch((error: Error) => this.failed(plan, error));
      known.status = report.status;
      return report;
    } finally {
      release();
    }
  }

  /**
   * Starts a child that runs on after the call returns: a task of the runtime's task table
   * (task_get, task_output, task_stop), its progress in its output file; the parent is told
   * when it ends.
   */
  private background(plan: Plan): SubagentReport {
    const { parent } = this.options;
    const output = new ChildOutput(join(parent.runtime.sessionDir, 'tasks', `${plan.tag.id}.log`));
    const run = this.childRun(plan, output);
    const known: KnownChild = { tag: plan.tag, run, status: 'waiting' };
    this.children.set(plan.tag.id, known);
    const stopper = new AbortController();
    const task = backgroundTask(plan.tag, plan.request, output.path, run.logPath, () => {
      stopper.abort();
      run.stop('stopped by task_stop');
    });
    task.done = (async () => {
      const release = await this.slots.acquire(stopper.signal);
      let report: SubagentReport;
      if (!release) report = this.notStarted(plan, 'Stopped before it started.');
      else {
        known.status = 'running';
        try {
          report = await run.run().catch((error: Error) => this.failed(plan, error));
        } finally {
          release();
        }
      }
      known.status = report.status;
      task.endedAt = Date.now();
      task.agent = { ...task.agent!, status: report.status };
      if (task.status === 'running') task.status = taskStatusOf(report.status);
      if (!stopper.signal.aborted) this.options.notify(endNote(report));
    })();
    parent.runtime.tasks?.set(task.id, task);
    return {
      ...this.notStarted(plan, ''),
      status: 'running',
    };
  }

  /** The report of a child that could not be set up (its log could not be made, say). */
  private failed(plan: Plan, error: Error): SubagentReport {
    return { ...this.notStarted(plan, `It could not start: ${error.message}`), status: 'failed' };
  }

  /** The report of a child that never ran. */
  private notStarted(plan: Plan, text: string): SubagentReport {
    const { runtime } = this.options.parent;
    return {
      id: plan.tag.id,
      name: plan.tag.name,
      type: plan.tag.type,
      status: 'interrupted',
      text,
      usage: { inputTokens: 0, outputTokens: 0, toolCalls: 0, ms: 0 },
      sessionId: plan.tag.id,
      logPath: plan.resumeLog ?? childLogPath(runtime.documentsRoot, runtime.workspace, plan.tag.id),
    };
  }
}
