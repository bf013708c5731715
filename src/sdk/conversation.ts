import type { LanguageModelV3 } from '@ai-sdk/provider';
import { environmentFor } from '../agent/environment_prefetch.js';
import type { AgentEvent, AgentOutcome, Usage } from '../agent/events.js';
import { limitText, type RunLimit, type SpendBudget } from '../agent/run_limits.js';
import { ChildrenSpend } from '../agent/subagents/children_spend.js';
import { trustNotice } from '../config/trust.js';
import type { Mode } from '../config/types.js';
import { grantTools } from '../permission/grants.js';
import { commandModel } from '../runtime/command_expansion.js';
import { createRuntime, type Runtime } from '../runtime/create_runtime.js';
import type { SessionLog } from '../session/log.js';
import { DenialCollector } from './denials.js';
import { ConversationEngine } from './engine.js';
import { UsageError } from './errors.js';
import type {
  SdkEventMessage,
  SdkInitMessage,
  SdkMessage,
  SdkResultMessage,
  SdkUserMessage,
} from './messages.js';
import type { HeadlessQueryOptions } from './options.js';
import { headlessPeerHandler } from './peer_messages.js';
import { conversationCommand, headlessPrompt } from './prompt_command.js';
import { imagesRefusal, systemPromptFrom } from './prompt_flags.js';
import { promptReader, readImages, type UserPrompt } from './prompts.js';
import { checkedSessionId, queryRuntimeOptions } from './query_runtime.js';
import { isLanguageModel, readyModelSetup } from './ready_model.js';
import { eventRecord } from './records.js';
import { initRecord, resultRecord } from './run_records.js';
import {
  findResumePoint,
  type ModelSetup,
  modelNameFor,
  NO_MODEL,
  openSessionLog,
  setUpModel,
  startRuntimeServices,
  withSessionSettings,
} from './run_setup.js';
import { headlessUserSide } from './user_side.js';

/** What a running conversation lets its program change while it goes. */
export interface LiveConversation {
  setMode(mode: Mode): void;
  /** Loads the model; it answers from the next prompt on. */
  setModel(model: string | LanguageModelV3): Promise<void>;
}

/** The program's side of a run: the interrupt, and where `setMode` / `setModel` land. */
export interface ConversationControl {
  readonly signal: AbortSignal;
  /** Ends the run, as `interrupt()` does, for a budget spent: the result says why. */
  stopForBudget(reason: string): void;
  readonly budgetStop?: string;
  attach(live: LiveConversation): void;
  /** A new prompt starts: its signal ends with `interruptTurn()` (this prompt only) or the interrupt. */
  startTurn(): AbortSignal;
  /** The running prompt's signal (the run's between prompts). */
  readonly turnSignal: AbortSignal;
}

const MODEL_KINDS = 'a "provider/model" name or an AI SDK language model object';

/**
 * One run of `query()`: the runtime, its services and the model set up; then each prompt sent to
 * the agent, its events given to `emit` as stream-json records, its end as a result record. Every
 * service the run started ends with it. A mistake in the options throws before anything is emitted.
 */
export async function runConversation(
  prompt: string | AsyncIterable<SdkUserMessage | string>,
  options: HeadlessQueryOptions,
  emit: (message: SdkMessage) => void,
  control: ConversationControl,
): Promise<SdkResultMessage | undefined> {
  const started = performance.now();
  const report = options.stderr ?? ((line: string) => process.stderr.write(`lathe: ${line}\n`));
  const warn = (line: string) => report(`warning: ${line}`);
  let log: SessionLog | undefined;
  let endServices: (() => Promise<void>) | undefined;
  let revokeGrant: (() => void) | undefined;
  // The approvals need the runtime's folders and rules; it is made after the options are read.
  let runtimeRef: Runtime | undefined;
  try {
    if (options.model !== undefined && typeof options.model !== 'string' && !isLanguageModel(options.model))
      throw new UsageError(`model: give ${MODEL_KINDS}`);
    const parts = queryRuntimeOptions(
      options,
      () => control.turnSignal,
      () => runtimeRef,
    );
    const resumed = findResumePoint(parts.runtime, options);
    const runtime = createRuntime({
      ...withSessionSettings(parts.runtime, resumed),
      sessionId: resumed?.id ?? checkedSessionId(options.sessionId),
      ...(options.agentKind ? { agentKind: options.agentKind } : {}),
    });
    runtimeRef = runtime;
    for (const warning of runtime.warnings) warn(warning);
    const untrusted = trustNotice(runtime.trust);
    if (untrusted) report(untrusted);
    for (const warning of resumed?.warnings ?? []) warn(warning);
    // git status for the system prompt runs while the model and the servers load.
    const environment = environmentFor(runtime.cwd);
    environment.catch(() => undefined); // awaited by the first request, which reports a failure
    // MCP servers start while the model loads. The sandbox probe waits for the first tool call:
    // a run without one never needs it, and its process would compete with the first request.
    // One queue of --answers for the model's questions and the servers' (unless `elicit` answers them).
    const user = headlessUserSide({ answers: options.answers, yolo: options.yolo });
    const services = startRuntimeServices(runtime, report, {
      probeSandboxLater: true,
      mcpServers: parts.mcpServers,
      elicit: options.elicit ?? user.elicit,
    });
    endServices = services.end;
    // A string prompt `/name args` runs a custom command or workflow (its commands may need the sandbox).
    const text = typeof prompt === 'string' ? prompt : undefined;
    if (text?.trim().startsWith('/')) services.probeSandbox();
    const expanded = text === undefined ? undefined : await headlessPrompt(runtime, text, services.mcp);
    const endpoint = { baseUrl: options.baseUrl, apiKey: options.apiKey, effort: options.effort };
    let setup: ModelSetup;
    if (isLanguageModel(options.model)) {
      setup = readyModelSetup(runtime, options.model);
    } else {
      const sessionModel = modelNameFor(runtime, options.model ?? resumed?.settings.model);
      const modelName = commandModel(expanded?.model, sessionModel);
      if (!modelName) throw new UsageError(NO_MODEL);
      if (expanded?.command && expanded.allowedTools)
        revokeGrant = grantTools(
          runtime.permissions,
          expanded.allowedTools,
          `${expanded.command.path} (allowed-tools)`,
        );
      setup = await setUpModel(runtime, modelName, endpoint);
    }
    if (options.maxBudgetUsd !== undefined && !setup.capabilities.pricing)
      throw new UsageError(
        `maxBudgetUsd (--max-cost): the prices of ${setup.modelName} are not known, so its spending cannot be kept to a budget`,
      );
    const refusal = options.images?.length ? imagesRefusal(setup.modelName, setup.capabilities) : undefined;
    if (refusal) throw new UsageError(refusal);
    const images = await readImages(options.images);
    // The first request offers the servers' tools: wait for them, at most mcp.startupTimeout.
    await waitForServerTools(await services.mcp, runtime, report);

    const nextPrompt =
      expanded === undefined
        ? promptReader(prompt as AsyncIterable<SdkUserMessage | string>, control.signal)
        : once({ text: expanded.text, images });
    // The init record comes before the first prompt is read: a program feeding a conversation
    // learns the session's id, tools and commands while the user is still typing.
    const sessionId = resumed?.id ?? runtime.sessionId;
    emit(
      initRecord({
        sessionId,
        model: setup.modelName,
        contextWindow: setup.capabilities.contextWindow,
        runtime,
        approve: parts.runtime.approve,
        yolo: options.yolo,
      }) as unknown as SdkInitMessage,
    );
    let current = await nextPrompt();
    if (!current) return undefined;
    log = openSessionLog(
      runtime,
      resumed?.path,
      {
        model: setup.modelName,
        profile: runtime.conditions.profile,
        mode: runtime.conditions.mode,
        prompt: text ?? current.text,
      },
      warn,
      { forked: resumed, noSession: options.noSession },
    );
    const session = log;
    const denials = new DenialCollector();
    const children = new ChildrenSpend();
    const spend = new Spending(options.maxBudgetUsd, options.maxTokens, control);
    // The engine recorded the event in the session log already.
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'tool_call') services.probeSandbox();
      if (event.type === 'subagent' && children.take(event)) spend.children(children.total());
      if (event.type === 'usage') spend.own(event.usage, event.costUsd);
      const record = eventRecord(event);
      if (!record) return;
      denials.take(record);
      emit(record as SdkEventMessage);
    };
    const engine = new ConversationEngine(
      {
        runtime: () => runtime,
        log: () => session,
        user,
        maxTurns: options.maxTurns,
        budget: spend.budget(),
        systemPrompt: systemPromptFrom({
          systemPrompt: options.systemPrompt,
          appendSystemPrompt: options.appendSystemPrompt,
          addDir: options.addDirs,
        }),
        jsonSchema: options.jsonSchema,
        retryBaseMs: Number((options.env ?? process.env).LATHE_RETRY_BASE_MS) || undefined,
        environment,
        onEvent,
        onNewAgent: () => spend.newAgent(),
      },
      resumed?.history ?? [],
    );
    engine.chooseModel(setup);
    engine.begin();
    // Messages from other lathe processes (feature peers): reported, and given to the agent.
    runtime.onPeerMessage(headlessPeerHandler(report, (note) => engine.notify(note)));
    attachControl(control, runtime, engine, endpoint);
    let last: SdkResultMessage | undefined;
    let lastOutcome: AgentOutcome | undefined;
    let promptStarted = started;
    while (current) {
      const from = denials.denied.length;
      // A conversation's `/name args` runs that command, as a string prompt's does.
      const typed = expanded === undefined ? await conversationCommand(runtime, current.text) : undefined;
      const sent = await engine.send(typed?.text ?? current.text, control.startTurn(), current.images);
      const limit = control.budgetStop && sent.kind === 'aborted' ? spend.limitReached() : undefined;
      lastOutcome = limit ? budgetOutcome(sent, limit) : sent;
      last = resultRecord(
        { outcome: lastOutcome, sessionId: session.id, durationMs: performance.now() - promptStarted },
        {
          permissionDenials: denials.denied.slice(from),
          jsonSchema: runtime.conditions.jsonSchema,
          children: children.total(),
        },
      ) as unknown as SdkResultMessage;
      emit(last);
      promptStarted = performance.now();
      current = await nextPrompt();
    }
    if (lastOutcome)
      session.append({ type: 'session_end', reason: lastOutcome.kind, usage: lastOutcome.usage });
    return last;
  } finally {
    // A command's pre-approved tools last for its prompt only.
    revokeGrant?.();
    // Tasks, schedules, MCP servers and the runs they started end with the run.
    await endServices?.();
    log?.close();
  }
}

/** Waits for the MCP servers' tools, at most mcp.startupTimeout, when there are servers. */
async function waitForServerTools(
  hub: Awaited<ReturnType<typeof startRuntimeServices>['mcp']>,
  runtime: Runtime,
  report: (line: string) => void,
): Promise<void> {
  if (hub) {
    const { waitForMcpStartup } = await import('../mcp/attach.js');
    await waitForMcpStartup(
      hub,
      runtime.settings.mcp.startupTimeoutMs,
      report,
      'going on without its tools, which join when it is up',
    );
  }
}

/** What the program can change while the conversation runs: the mode, and the model from the next prompt. */
function attachControl(
  control: ConversationControl,
  runtime: Runtime,
  engine: ConversationEngine,
  endpoint: Parameters<typeof setUpModel>[2],
): void {
  control.attach({
    setMode: (mode) => {
      if (mode === runtime.conditions.mode) return;
      runtime.setMode(mode);
      engine.report({ type: 'mode_change', mode });
    },
    // The conversation goes on with the new model from the next prompt: a new agent, the same messages.
    setModel: async (model) => {
      engine.chooseModel(
        isLanguageModel(model) ? readyModelSetup(runtime, model) : await setUpModel(runtime, model, endpoint),
      );
    },
  });
}

/** A single prompt, then the end. */
function once(prompt: UserPrompt): () => Promise<UserPrompt | undefined> {
  let given = false;
  return async () => {
    if (given) return undefined;
    given = true;
    return prompt;
  };
}

/** A run the budget interrupted while a child spent it: ended as a limit ends one. */
function budgetOutcome(outcome: AgentOutcome, limit: RunLimit): AgentOutcome {
  const kind = limit.name === 'cost' ? 'max_cost' : 'max_tokens';
  return { ...outcome, kind, text: limitText(limit), limit };
}

interface Spent {
  tokens: number;
  costUsd: number;
}
const tokensOf = (usage: Usage) => usage.inputTokens + usage.outputTokens;

/**
 * The run's spending against `maxBudgetUsd` and `maxTokens`: its agents' own requests and its
 * children's. The agent checks the budget before each request and at each response's usage
 * (`budget()`); a child that spends it up while its call runs interrupts the run here.
 */
class Spending {
  private retired: Spent = { tokens: 0, costUsd: 0 };
  private current: Spent = { tokens: 0, costUsd: 0 };
  private child: Spent = { tokens: 0, costUsd: 0 };

  constructor(
    private readonly maxCostUsd: number | undefined,
    private readonly maxTokens: number | undefined,
    private readonly control: ConversationControl,
  ) {}

  /** The budget for the agents: what the others spent is counted with each agent's own. */
  budget(): SpendBudget | undefined {
    if (this.maxCostUsd === undefined && this.maxTokens === undefined) return undefined;
    return {
      maxCostUsd: this.maxCostUsd,
      maxTokens: this.maxTokens,
      spentElsewhere: () => ({
        tokens: this.retired.tokens + this.child.tokens,
        costUsd: this.retired.costUsd + this.child.costUsd,
      }),
    };
  }

  own(usage: Usage, costUsd: number | undefined): void {
    this.current = { tokens: tokensOf(usage), costUsd: costUsd ?? this.current.costUsd };
  }

  children(spend: { usage: Usage; costUsd?: number }): void {
    this.child = { tokens: tokensOf(spend.usage), costUsd: spend.costUsd ?? this.child.costUsd };
    if (!this.control.budgetStop && this.limitReached())
      this.control.stopForBudget('a child spent the budget');
  }

  /** A new agent (another model) counts from zero: what the last one spent is kept. */
  newAgent(): void {
    this.retired = {
      tokens: this.retired.tokens + this.current.tokens,
      costUsd: this.retired.costUsd + this.current.costUsd,
    };
    this.current = { tokens: 0, costUsd: 0 };
  }

  /** The budget the whole run has reached (cost first), if any. */
  limitReached(): RunLimit | undefined {
    const tokens = this.retired.tokens + this.current.tokens + this.child.tokens;
    const costUsd = this.retired.costUsd + this.current.costUsd + this.child.costUsd;
    if (this.maxCostUsd !== undefined && costUsd >= this.maxCostUsd)
      return { name: 'cost', used: costUsd, max: this.maxCostUsd };
    if (this.maxTokens !== undefined && tokens >= this.maxTokens)
      return { name: 'tokens', used: tokens, max: this.maxTokens };
    return undefined;
  }
}
