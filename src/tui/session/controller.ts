import type { ConversationMessage } from '../../agent/model_stream.js';
import type { Effort, Mode, Profile } from '../../config/types.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { ContextReport } from '../../tool/context/conversation.js';
import type { UiStore } from '../state/store.js';
import { AgentRunner } from './agent_runner.js';
import type { CommandHost, PromptOptions } from './command_host.js';
import { CommandTail } from './command_tail.js';
import type { ResumedSession } from './host.js';
import { InputRouter } from './input_router.js';
import { MessageQueue } from './message_queue.js';
import { RecentResults, type ViewableResult } from './results.js';
import { SessionLifecycle, type SessionOptions } from './session_lifecycle.js';
import type { SessionControls } from './starting.js';
import { showResumed, showWelcome } from './welcome.js';

export type { SessionOptions } from './session_lifecycle.js';

/**
 * One interactive session, put together from its three parts: the lifecycle (runtime, log,
 * resume, mode), the agent runner (prompts, compaction, model and effort) and the input router
 * (commands, `!commands`, prompts, the queue, Esc). React only renders its store; slash commands
 * see it as a `CommandHost`.
 */
export class InteractiveSession implements SessionControls, CommandHost {
  readonly store: UiStore;
  private readonly queue: MessageQueue;
  private readonly results: RecentResults;
  private readonly lifecycle: SessionLifecycle;
  private readonly runner: AgentRunner;
  private readonly input: InputRouter;
  private readonly tail: CommandTail;

  constructor(private readonly options: SessionOptions) {
    this.lifecycle = new SessionLifecycle(options, {
      submit: (text, shown) => void this.submit(text, shown),
      interrupt: () => this.interrupt(),
    });
    const lifecycle = this.lifecycle;
    this.store = lifecycle.store;
    this.tail = new CommandTail(this.store, () => this.runtime.sessionDir);
    this.queue = new MessageQueue(this.store, () => lifecycle.currentLog);
    this.results = new RecentResults(this.store, () => this.runtime.place.cwd);
    this.runner = new AgentRunner({
      host: options.host,
      store: this.store,
      model: lifecycle.model,
      queue: this.queue,
      results: this.results,
      tail: this.tail,
      runtime: () => lifecycle.runtime,
      log: () => lifecycle.currentLog,
      openLog: (shown) => lifecycle.openLog(shown),
      settingsChanged: () => lifecycle.recordSettings(),
    });
    this.input = new InputRouter(this.store, this.runner, this.queue, this, () => this.cwd);
    if (options.resume) this.adopt(options.resume);
  }

  get runtime(): Runtime {
    return this.lifecycle.runtime;
  }

  get modelName(): string | undefined {
    return this.lifecycle.model.name;
  }

  get cwd(): string {
    return this.runtime.cwd;
  }

  get isRunning(): boolean {
    return this.input.isRunning;
  }

  get effortName(): string {
    return this.runner.effortName;
  }

  modelMissing(name: string): string | undefined {
    return this.options.host.missingSetup?.(name);
  }

  /** This session's log: written from the first prompt on, or the resumed session's. */
  get logPath(): string | undefined {
    return this.lifecycle.logPath;
  }

  /** The id to give `lathe --resume` after leaving, once this run has written a session log. */
  get resumableSessionId(): string | undefined {
    return this.lifecycle.resumableSessionId;
  }

  /** The first lines, and the end of a resumed conversation. */
  start(): void {
    showWelcome(this.store, this.runtime, this.modelName);
    const resumed = this.lifecycle.resumedSession;
    if (resumed) showResumed(this.store, resumed, this.runtime.cwd);
    this.store.flush();
  }

  /**
   * What may wait until the prompt is on screen: the model's provider package, and what the
   * runtime brings along (MCP servers, the sandbox probe, scheduled prompts).
   */
  startInBackground(): void {
    this.lifecycle.connectInBackground();
    void this.lifecycle.model.load(this.runtime);
  }

  submit(text: string, shown?: string): Promise<void> {
    return this.input.submit(text, shown);
  }

  run(prompt: string, shown: string, options?: PromptOptions): Promise<void> {
    return this.runner.run(prompt, shown, options);
  }

  /** The custom commands and workflows, for Tab completion after the built-in ones. */
  get commandNames(): readonly string[] {
    return this.runtime.commands.names();
  }

  interrupt(): boolean {
    return this.input.interrupt();
  }

  expandLatest(): void {
    this.results.expandLatest();
  }

  viewableResult(): ViewableResult | undefined {
    return this.results.viewable();
  }

  detachCommands(): number {
    return this.runtime.detachForegroundCommands();
  }

  cycleMode(): void {
    this.lifecycle.cycleMode();
  }

  setMode(mode: Mode, autoEdits = false): void {
    this.lifecycle.setMode(mode, autoEdits);
  }

  switchModel(name: string): Promise<void> {
    return this.runner.switchModel(name);
  }

  setEffort(effort: Effort | 'off'): void {
    this.runner.setEffort(effort);
  }

  switchProfile(profile: Profile): void {
    this.lifecycle.switchProfile(profile);
  }

  compact(): Promise<void> {
    return this.runner.compact();
  }

  inspectContext(): Promise<ContextReport | undefined> {
    return this.runner.inspectContext();
  }

  findSession(idOrPrefix: string): ResumedSession | undefined {
    return this.options.host.findSession(this.runtime, idOrPrefix);
  }

  /** Starts over: a new session with no history. */
  clear(): void {
    this.lifecycle.clear();
    this.runner.restart([]);
  }

  get conversation(): readonly ConversationMessage[] {
    return this.runner.messages;
  }

  rewindConversation(messages: ConversationMessage[]): void {
    this.runner.rewind(messages);
  }

  /** Continues a session from its log (`/resume`). */
  resume(session: ResumedSession): void {
    this.lifecycle.resume(session);
    this.runner.restart(session.history);
    const model = session.settings?.model;
    if (model && model !== this.modelName) void this.switchModel(model);
  }

  private adopt(session: ResumedSession): void {
    this.lifecycle.adopt(session);
    this.runner.restart(session.history);
  }

  /** Ends the session: the run stops, what the runtime started ends, the log is closed. */
  exit(): void {
    this.interrupt();
    this.tail.stop();
    this.lifecycle.exit();
    this.store.setExiting();
  }

  /** Settles when everything the session started has ended (after `exit`). */
  closed(): Promise<void> {
    return this.lifecycle.closed();
  }
}
