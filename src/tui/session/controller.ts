import { Agent } from '../../agent/agent.js';
import { compactMessages } from '../../agent/compaction.js';
import { type AgentEvent, emptyUsage } from '../../agent/events.js';
import type { ConversationMessage } from '../../agent/model_stream.js';
import type { Effort, Mode, Profile } from '../../config/types.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { SessionLog } from '../../session/log.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../tool/run_call.js';
import type { ImageBlock } from '../../tool/types.js';
import { AgentEventView } from '../state/agent_events.js';
import type { TodoItem } from '../state/items.js';
import { type StatusInfo, UiStore } from '../state/store.js';
import { askApproval } from './approvals.js';
import { attachFiles } from './attachments.js';
import { CommandTail } from './command_tail.js';
import type { ConversationHost, ResumedSession } from './host.js';
import { MessageQueue } from './message_queue.js';
import { ModelSlot } from './model_slot.js';
import { carrySessionRules } from './permissions_panel.js';
import { RecentResults } from './results.js';
import { spentSoFar } from './resumed_usage.js';
import { scheduledPromptHandler } from './scheduled.js';
import type { SessionControls } from './starting.js';
import { settleTrust } from './trust_question.js';
import { runShellInUi, type ShellRun } from './user_shell.js';
import { terminalUserSide } from './user_side.js';
import { showResumed, showWelcome } from './welcome.js';

export interface SessionOptions {
  host: ConversationHost;
  modelName?: string;
  profile?: Profile;
  mode?: Mode;
  resume?: ResumedSession;
  /** The store the first frame was drawn from, when the UI was up before the session. */
  store?: UiStore;
}

const notice = (text: string, tone: 'info' | 'warn' | 'error' = 'info') => ({
  kind: 'notice' as const,
  tone,
  text,
});

/**
 * One interactive session: the runtime, the model and the agent behind the UI, and what a
 * person does with them — prompts, queued messages, interrupts, modes, approvals, questions.
 * React only renders its store.
 */
export class InteractiveSession implements SessionControls {
  readonly store: UiStore;
  runtime: Runtime;
  readonly queue: MessageQueue;
  readonly results: RecentResults;
  private readonly model: ModelSlot;
  private readonly view: AgentEventView;
  private readonly tail: CommandTail;
  private agent?: Agent;
  private log?: SessionLog;
  private resumePath?: string;
  private resumed?: ResumedSession;
  /** The session whose log was last written: `resume with: lathe --resume <id>` on exit. */
  private loggedSessionId?: string;
  private history: ConversationMessage[] = [];
  private abort?: AbortController;
  private running = false;
  private shell?: ShellRun;
  private autoEdits = false;
  /** `!command` outputs, handed to the model with the next prompt. */
  private readonly context: string[] = [];
  /** Ends what the current runtime started (MCP servers, tasks, schedules, background commands). */
  private detach?: () => Promise<void>;
  private closing?: Promise<void>;
  private exited = false;
  /** Chosen with /effort; until then the flag's or the settings'. */
  private effort?: Effort | 'off';

  constructor(private readonly options: SessionOptions) {
    const { host, resume } = options;
    this.runtime = this.newRuntime({ sessionId: resume?.id, profile: options.profile, mode: options.mode });
    const modelName = options.modelName ?? host.defaultModel(this.runtime);
    this.store = readyStore(options.store, {
      model: modelName,
      mode: this.runtime.conditions.mode,
      autoEdits: false,
      profile: this.runtime.conditions.profile,
      contextTokens: 0,
      usage: emptyUsage(),
    });
    this.model = new ModelSlot(host, this.store, modelName);
    this.view = new AgentEventView(this.store);
    this.tail = new CommandTail(this.store, () => this.runtime.sessionDir);
    this.queue = new MessageQueue(this.store, () => this.log);
    this.results = new RecentResults(this.store, () => this.runtime.cwd);
    this.view.cwd = () => this.runtime.cwd;
    if (resume) this.adopt(resume);
  }

  /**
   * What may wait until the prompt is on screen: the model's provider package, and what the
   * runtime brings along (MCP servers, the sandbox probe, scheduled prompts).
   */
  startInBackground(): void {
    if (!this.detach) this.connectOnceTrusted();
    void this.model.load(this.runtime);
  }

  /** The folder's own MCP servers must not start before the trust question is answered. */
  private connectOnceTrusted(): void {
    const settling = settleTrust(this.store, this.runtime);
    if (!settling) {
      this.connect(this.runtime);
      return;
    }
    void settling.then((trusted) => {
      if (this.exited) return;
      if (!trusted) {
        this.connect(this.runtime);
        return;
      }
      const { profile, mode } = this.options;
      this.replaceRuntime(this.newRuntime({ sessionId: this.runtime.sessionId, profile, mode }), true);
    });
  }

  private connect(runtime: Runtime): void {
    const release = this.options.host.attach(runtime, (line) => this.store.add(notice(line, 'warn')));
    const unsubscribe = runtime.onScheduledPrompt(
      scheduledPromptHandler(this.store, (text, shown) => void this.submit(text, shown)),
    );
    this.detach = async () => {
      unsubscribe();
      await release();
    };
  }

  get host(): ConversationHost {
    return this.options.host;
  }

  get modelName(): string | undefined {
    return this.model.name;
  }

  get cwd(): string {
    return this.runtime.cwd;
  }

  expandLatest(): void {
    this.results.expandLatest();
  }

  detachCommands(): number {
    return this.runtime.detachForegroundCommands();
  }

  get isRunning(): boolean {
    return this.running || this.shell !== undefined;
  }

  /** The first lines, and the end of a resumed conversation. */
  start(): void {
    showWelcome(this.store, this.runtime, this.model.name);
    if (this.resumed) showResumed(this.store, this.resumed, this.runtime.cwd);
    this.store.flush();
  }

  newRuntime(options: { sessionId?: string; profile?: Profile; mode?: Mode }): Runtime {
    return this.options.host.createRuntime({ ...options, askUser: (request) => this.askUser(request) });
  }

  /** Switches the model; the conversation goes on with the new one. */
  async switchModel(name: string): Promise<void> {
    const model = await this.model.switchTo(name, this.runtime);
    if (!model) return;
    this.retireAgent();
    this.store.add(notice(`Model: ${name}`));
    this.recordSettings();
  }

  /** The next prompt makes a new agent with the conversation so far (after a model or runtime change). */
  private retireAgent(): void {
    if (this.agent) this.history = this.agent.messages;
    this.agent = undefined;
  }

  /** Another runtime (a profile, a resumed or a fresh session); "this session" rules carry over when kept. */
  replaceRuntime(runtime: Runtime, keepSessionRules: boolean): void {
    if (keepSessionRules) carrySessionRules(this.runtime.permissions, runtime.permissions);
    // The old runtime's servers, tasks and commands end; the new one's start.
    void this.detach?.();
    this.runtime = runtime;
    this.connect(runtime);
    this.retireAgent();
    this.model.reset();
    this.store.setStatus({ mode: runtime.conditions.mode, profile: runtime.conditions.profile });
    void this.model.load(runtime);
    this.recordSettings();
  }

  /** What the session runs with now, so resuming it later restores the same. */
  private recordSettings(): void {
    const { profile, mode } = this.runtime.conditions;
    this.log?.append({ type: 'settings_change', model: this.model.name, profile, mode });
  }

  /** Starts over: a new session with no history. */
  clear(): void {
    this.closeLog('cleared');
    const { profile, mode } = this.runtime.conditions;
    this.replaceRuntime(this.newRuntime({ profile, mode }), false);
    this.history = [];
    this.resumePath = undefined;
    this.store.setTodo(undefined);
    // A new session starts from nothing spent: the cost line too.
    this.store.setStatus({ contextTokens: 0, usage: emptyUsage(), costUsd: undefined });
  }

  /** Continues a session from its log (`/resume`). */
  resume(session: ResumedSession): void {
    this.closeLog('switched');
    this.replaceRuntime(
      this.newRuntime({ sessionId: session.id, profile: this.runtime.conditions.profile }),
      false,
    );
    this.adopt(session);
    showResumed(this.store, session, this.runtime.cwd);
    const model = session.settings?.model;
    if (model && model !== this.model.name) void this.switchModel(model);
  }

  private adopt(session: ResumedSession): void {
    this.history = session.history;
    this.resumePath = session.path;
    this.resumed = session;
    // The status line goes on from what the session had spent: its tokens, context and cost.
    const spent = spentSoFar(session.path);
    this.store.setStatus({
      usage: spent?.usage ?? emptyUsage(),
      costUsd: spent?.costUsd,
      contextTokens: spent?.contextTokens ?? 0,
    });
  }

  /** This session's log: written from the first prompt on, or the resumed session's. */
  get logPath(): string | undefined {
    return this.log?.path ?? this.resumePath;
  }

  /** The id to give `lathe --resume` after leaving, once this run has written a session log. */
  get resumableSessionId(): string | undefined {
    return this.loggedSessionId;
  }

  closeLog(reason: string): void {
    if (!this.log) return;
    const { usage, costUsd, contextTokens } = this.store.status;
    this.log.append({ type: 'session_end', reason, usage, costUsd, contextTokens });
    this.log.close();
    this.log = undefined;
  }

  /** What the user typed: a command, a shell command, a prompt, or a message for the running agent. */
  async submit(text: string, shown = text): Promise<void> {
    const trimmed = text.trim();
    if (!trimmed) return;
    // A notice about what came before does not stay once the user moves on.
    if (this.store.hint) this.store.setHint(undefined);
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) {
      const { runSlashCommand } = await import('./slash_commands.js');
      return runSlashCommand(this, trimmed);
    }
    if (trimmed.startsWith('!')) return this.runShell(trimmed.slice(1).trim());
    if (this.isRunning) return this.queue.push(text, shown);
    return this.run(text, shown);
  }

  /** Sends a prompt and runs it to its end; messages still queued then follow as the next prompt. */
  async run(prompt: string, shown: string): Promise<void> {
    await this.step('Starting', async (signal) => {
      const agent = await this.ensureAgent();
      if (!agent || signal.aborted) return;
      this.store.add({ kind: 'user', text: shown });
      const { text, attached, skipped, images } = attachFiles(prompt, this.runtime.cwd);
      const pictures = await this.readImages(images);
      if (!pictures) return;
      attached.push(...images.map((image) => image.shown));
      if (attached.length > 0) this.store.add(notice(`Attached ${attached.join(', ')}`));
      for (const why of skipped) this.store.add(notice(`Not attached: ${why}`, 'warn'));
      const { profile, mode } = this.runtime.conditions;
      this.log ??= this.options.host.openLog(
        this.runtime,
        this.resumePath,
        { model: this.model.name, profile, mode, prompt: shown },
        (line) => this.store.add(notice(line, 'warn')),
      );
      this.loggedSessionId = this.log.id;
      await agent.send([...this.context.splice(0), text].join('\n\n'), signal, pictures);
    });
    const next = this.queue.takeAll();
    if (next) return this.run(next, next);
    // A todo list whose items are all done has nothing more to show.
    const todo = this.store.todo;
    if (todo?.every((item) => item.status === 'completed')) this.store.setTodo(undefined);
  }

  /** One busy step: the spinner shows, and Esc aborts its signal. */
  private async step(label: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    this.running = true;
    const abort = new AbortController();
    this.abort = abort;
    this.store.setBusy({ since: Date.now(), label });
    try {
      await work(abort.signal);
    } finally {
      this.running = false;
      this.abort = undefined;
      this.store.setBusy(undefined);
    }
  }

  /** The @-named images, read for the model; undefined (with the reason shown) when they cannot go. */
  private async readImages(
    images: Array<{ path: string; shown: string }>,
  ): Promise<ImageBlock[] | undefined> {
    if (images.length === 0) return [];
    const model = this.model.loaded;
    const read = this.options.host.readImage;
    if (!model?.capabilities.images || !read) {
      const name = this.model.name ?? 'this model';
      this.store.add(
        notice(
          `${name} does not take images: leave @${images[0].shown} out, or switch with /model.`,
          'error',
        ),
      );
      return undefined;
    }
    try {
      return await Promise.all(images.map((image) => read(image.path)));
    } catch (error) {
      this.store.add(notice((error as Error).message, 'error'));
      return undefined;
    }
  }

  /** `/effort`: how hard the model thinks from the next prompt on. */
  setEffort(effort: Effort | 'off'): void {
    this.effort = effort;
    this.retireAgent();
  }

  get effortName(): string {
    return this.effort ?? this.model.loaded?.effort ?? 'off';
  }

  private async ensureAgent(): Promise<Agent | undefined> {
    if (this.agent) return this.agent;
    if (!this.model.name) {
      this.store.add(notice('No model is set: choose one with /model provider/model.', 'error'));
      return undefined;
    }
    const model = await this.model.load(this.runtime);
    if (!model) return undefined;
    this.view.newAgent();
    const agent = new Agent({
      runtime: this.runtime,
      model: model.model,
      modelName: model.modelName,
      capabilities: model.capabilities,
      providerOptions:
        this.effort === undefined
          ? model.providerOptions
          : (model.optionsForEffort?.(this.effort === 'off' ? undefined : this.effort) ??
            model.providerOptions),
      systemPrompt: this.options.host.systemPrompt,
      user: terminalUserSide(this.store),
      history: this.history,
      retryBaseMs: Number(process.env.LATHE_RETRY_BASE_MS) || undefined,
      onEvent: (event) => this.onEvent(event),
      onMessage: (message) => {
        this.log?.append({ type: 'model_message', message });
        this.queue.deliverAfter(message, agent.messages);
      },
      onCompacted: (messages) => this.log?.append({ type: 'compacted_messages', messages }),
    });
    this.agent = agent;
    return agent;
  }

  private onEvent(event: AgentEvent): void {
    // change_todo_list announces the approved list with an event of its own.
    const todo = event as unknown as { type: string; items?: TodoItem[] };
    if (todo.type === 'todo' && todo.items) this.store.setTodo(todo.items);
    this.view.apply(event);
    this.results.observe(event);
    if (this.log && this.options.host.recorded(event)) this.log.append(event as never);
    if (event.type === 'tool_start' && event.name === 'execute_command') this.tail.watch();
  }

  private askUser(request: ApprovalRequest): Promise<ApprovalAnswer> {
    return askApproval(request, {
      store: this.store,
      runtime: this.runtime,
      autoEdits: this.autoEdits && this.runtime.conditions.mode === 'act',
      interrupt: () => this.interrupt(),
    });
  }

  /** Esc: stops the current step (the model request, the running tools, a `!command`). */
  interrupt(): boolean {
    const active = this.abort !== undefined || this.shell !== undefined;
    this.abort?.abort();
    this.shell?.kill();
    this.store.cancelPrompts();
    return active;
  }

  /** Shift+Tab: Act → Act with edits approved → Plan → Act. */
  cycleMode(): void {
    const { mode } = this.runtime.conditions;
    if (mode === 'plan') this.setMode('act', false);
    else if (!this.autoEdits) this.setMode('act', true);
    else this.setMode('plan', false);
  }

  setMode(mode: Mode, autoEdits = false): void {
    if (mode !== this.runtime.conditions.mode) {
      this.runtime.setMode(mode);
      this.recordSettings();
    }
    this.autoEdits = mode === 'act' && autoEdits;
    this.store.setStatus({ mode, autoEdits: this.autoEdits });
    this.store.flush();
  }

  async runShell(command: string): Promise<void> {
    if (!command) return;
    if (this.isRunning) {
      this.store.add(
        notice('Wait for the current step to end (or press Esc) before running a command.', 'warn'),
      );
      return;
    }
    try {
      this.context.push(
        await runShellInUi(this.store, command, this.runtime.cwd, (run) => (this.shell = run)),
      );
    } finally {
      this.shell = undefined;
    }
  }

  /** Summarizes the conversation so far into a short one (done by itself near the window, too). */
  async compact(): Promise<void> {
    const model = await this.model.load(this.runtime);
    const messages = this.agent?.messages ?? this.history;
    if (!model || messages.length < 2) {
      this.store.add(notice('Nothing to compact yet.'));
      return;
    }
    await this.step('Compacting', async (signal) => {
      const summary = await compactMessages(model.model, messages, signal);
      messages.splice(0, messages.length, ...summary.messages);
      this.log?.append({ type: 'compacted_messages', messages: summary.messages });
      this.store.add(notice('The conversation was compacted into a summary.'));
      this.store.setStatus({ contextTokens: 0 });
    });
  }

  /** Ends the session: the run stops, what the runtime started ends, the log is closed. */
  exit(): void {
    this.exited = true;
    this.interrupt();
    this.tail.stop();
    this.runtime.stopBackgroundCommands();
    this.closing ??= this.detach?.().catch(() => undefined);
    this.closeLog('exit');
    this.store.setExiting();
  }

  /** Settles when everything the session started has ended (after `exit`). */
  closed(): Promise<void> {
    return this.closing ?? Promise.resolve();
  }
}

/** The store the first frame was drawn from, now with what the session runs with; or a new one. */
function readyStore(store: UiStore | undefined, status: StatusInfo): UiStore {
  if (!store) return new UiStore(status);
  store.setStatus({ ...status, starting: false });
  return store;
}
