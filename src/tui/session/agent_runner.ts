import type { AgentEvent } from '../../agent/events.js';
import type { ConversationMessage } from '../../agent/model_stream.js';
import type { Effort } from '../../config/types.js';
import { grantTools } from '../../permission/grants.js';
import { commandModel } from '../../runtime/command_expansion.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import { ConversationEngine } from '../../sdk/engine.js';
import type { SessionLog } from '../../session/log.js';
import type { ContextReport } from '../../tool/context/conversation.js';
import type { ImageBlock } from '../../tool/types.js';
import { childTranscript } from '../render/child_line.js';
import { resultView } from '../render/tool_facts.js';
import { AgentEventView } from '../state/agent_events.js';
import type { UiStore } from '../state/store.js';
import { attachFiles } from './attachments.js';
import type { PromptOptions } from './command_host.js';
import type { CommandTail } from './command_tail.js';
import type { ConversationHost, LoadedModel } from './host.js';
import type { MessageQueue } from './message_queue.js';
import type { ModelSlot } from './model_slot.js';
import { attachResources, withResources } from './resource_mentions.js';
import './tool_catalogue.js';
import { notice } from './notice.js';
import type { RecentResults } from './results.js';
import { terminalUserSide } from './user_side.js';

/** What the runner needs of the session around it. */
export interface RunnerParts {
  host: ConversationHost;
  store: UiStore;
  model: ModelSlot;
  queue: MessageQueue;
  results: RecentResults;
  tail: CommandTail;
  /** The runtime the session runs on now (it changes with /profile, /clear, /resume). */
  runtime(): Runtime;
  /** The session log records go to, if it is open. */
  log(): SessionLog | undefined;
  /** Opens the log at the first prompt (`shown` as typed). */
  openLog(shown: string): SessionLog;
  /** The model or the settings changed: the log records it. */
  settingsChanged(): void;
}

/**
 * The session's turns, run on the conversation engine `query()` runs on: one busy step at a time
 * (a prompt, a compaction) with Esc stopping it. The engine makes a new agent with the
 * conversation so far after a model, effort or runtime change.
 */
export class AgentRunner {
  private readonly engine: ConversationEngine;
  private abort?: AbortController;
  private running = false;
  /** `!command` outputs, handed to the model with the next prompt. */
  readonly context: string[] = [];
  private readonly view: AgentEventView;

  constructor(private readonly parts: RunnerParts) {
    this.view = new AgentEventView(parts.store);
    this.view.cwd = () => parts.runtime().place.cwd;
    // A child's run, once it ended, can be printed in full with Ctrl-O.
    this.view.children.onEnded = (child) => {
      const { title, text } = childTranscript(child);
      parts.results.keep(title, text);
    };
    this.engine = new ConversationEngine({
      runtime: () => parts.runtime(),
      log: () => parts.log(),
      user: terminalUserSide(parts.store),
      systemPrompt: parts.host.systemPrompt,
      retryBaseMs: Number(process.env.LATHE_RETRY_BASE_MS) || undefined,
      onEvent: (event) => this.onEvent(event),
      onMessage: (message, conversation) => parts.queue.deliverAfter(message, conversation),
      onNewAgent: () => this.view.newAgent(),
    });
  }

  /** A step (a prompt, a compaction) is under way. */
  get isRunning(): boolean {
    return this.running;
  }

  /** The conversation goes on from `history` (a resumed session, or none after /clear). */
  restart(history: ConversationMessage[]): void {
    this.engine.restart(history);
  }

  /** The conversation so far. */
  get messages(): readonly ConversationMessage[] {
    return this.engine.messages;
  }

  /** `/rewind`: the conversation goes on from `messages` (an earlier part of it); the log records it. */
  rewind(messages: ConversationMessage[]): void {
    this.engine.rewind(messages);
  }

  /**
   * Sends a prompt and runs it to its end; messages still queued then follow as the next prompt.
   * A custom command's model and pre-approved tools hold for this prompt only.
   */
  async run(prompt: string, shown: string, options: PromptOptions = {}): Promise<void> {
    const { store, queue } = this.parts;
    const restoreModel = await this.modelFor(options.model);
    if (restoreModel === false) return;
    const revoke = options.allowedTools?.length
      ? grantTools(this.parts.runtime().permissions, options.allowedTools, options.source ?? shown)
      : undefined;
    try {
      await this.send(prompt, shown);
    } finally {
      revoke?.();
      await restoreModel?.();
    }
    const next = queue.takeAll();
    if (next) return this.run(next, next);
    // A todo list whose items are all done has nothing more to show.
    const todo = store.todo;
    if (todo?.every((item) => item.status === 'completed')) store.setTodo(undefined);
  }

  /**
   * Switches to a command's model for one prompt: returns what switches back, nothing when the
   * model stays, or false when the model cannot be loaded (the reason is shown).
   */
  private async modelFor(wanted: string | undefined): Promise<(() => Promise<void>) | undefined | false> {
    const { model: slot, store } = this.parts;
    const previous = slot.name;
    const name = commandModel(wanted, previous);
    if (name === undefined || name === previous) return undefined;
    if (!(await slot.switchTo(name, this.parts.runtime()))) return false;
    store.add(notice(`Model for this prompt: ${name}`));
    return async () => {
      if (previous === undefined) return;
      await slot.switchTo(previous, this.parts.runtime());
    };
  }

  private async send(prompt: string, shown: string): Promise<void> {
    const { store } = this.parts;
    await this.step('Starting', async (signal) => {
      if (!(await this.loadModel()) || signal.aborted) return;
      store.add({ kind: 'user', text: shown });
      const files = attachFiles(prompt, this.parts.runtime().cwd);
      const { attached, skipped, images } = files;
      const resources = await attachResources(prompt, this.parts.runtime().mcp, signal);
      attached.push(...resources.attached);
      skipped.push(...resources.skipped);
      const text = withResources(files.text, prompt, resources.blocks);
      const pictures = await this.readImages(images);
      if (!pictures) return;
      attached.push(...images.map((image) => image.shown));
      if (attached.length > 0) store.add(notice(`Attached ${attached.join(', ')}`));
      for (const why of skipped) store.add(notice(`Not attached: ${why}`, 'warn'));
      this.parts.openLog(shown);
      await this.engine.send([...this.context.splice(0), text].join('\n\n'), signal, pictures);
    });
  }

  /** One busy step: the spinner shows, and Esc aborts its signal. */
  private async step(label: string, work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    this.running = true;
    const abort = new AbortController();
    this.abort = abort;
    this.parts.store.setBusy({ since: Date.now(), label });
    try {
      await work(abort.signal);
    } finally {
      this.running = false;
      this.abort = undefined;
      this.parts.store.setBusy(undefined);
    }
  }

  /** Esc: stops the current step; false when none ran. */
  interrupt(): boolean {
    const active = this.abort !== undefined;
    this.abort?.abort();
    return active;
  }

  /** The @-named images, read for the model; undefined (with the reason shown) when they cannot go. */
  private async readImages(
    images: Array<{ path: string; shown: string }>,
  ): Promise<ImageBlock[] | undefined> {
    if (images.length === 0) return [];
    const { model: slot, host, store } = this.parts;
    const model = slot.loaded;
    const read = host.readImage;
    if (!model?.capabilities.images || !read) {
      const name = slot.name ?? 'this model';
      store.add(
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
      store.add(notice((error as Error).message, 'error'));
      return undefined;
    }
  }

  /** Switches the model; the conversation goes on with the new one. */
  async switchModel(name: string): Promise<void> {
    const model = await this.parts.model.switchTo(name, this.parts.runtime());
    if (!model) return;
    this.parts.store.add(notice(`Model: ${name}`));
    this.parts.settingsChanged();
  }

  /** `/effort`: how hard the model thinks from the next prompt on. */
  setEffort(effort: Effort | 'off'): void {
    this.engine.setEffort(effort);
  }

  get effortName(): string {
    return this.engine.effortName;
  }

  /** The session's model, loaded for the runtime of now and handed to the engine; undefined (the reason shown) when none. */
  private async loadModel(): Promise<LoadedModel | undefined> {
    const { model: slot, store } = this.parts;
    if (!slot.name) {
      store.add(notice('No model is set: choose one with /model provider/model.', 'error'));
      return undefined;
    }
    const model = await slot.load(this.parts.runtime());
    if (model) this.engine.chooseModel(model);
    return model;
  }

  private onEvent(event: AgentEvent): void {
    const { store, results, tail } = this.parts;
    // change_todo_list announces the approved list with an event of its own.
    if (event.type === 'todo') store.setTodo(event.items);
    this.view.apply(event);
    results.observe(event);
    if (event.type === 'tool_start' && resultView(event.name) === 'tail') tail.watch();
  }

  /**
   * Summarizes the conversation so far into a short one (done by itself near the window, too);
   * lasting instructions and the latest prompt stay word for word.
   */
  async compact(): Promise<void> {
    const { model: slot, store } = this.parts;
    const model = await slot.load(this.parts.runtime());
    if (!model || this.engine.messages.length < 2) {
      store.add(notice('Nothing to compact yet.'));
      return;
    }
    await this.step('Compacting', async (signal) => {
      if (!(await this.loadModel())) return;
      await this.engine.compact(signal);
      store.add(notice('The conversation was compacted into a summary.'));
      store.setStatus({ contextTokens: 0 });
    });
  }

  /** What fills the context of the next request (`/context`). */
  async inspectContext(): Promise<ContextReport | undefined> {
    if (!(await this.loadModel())) return undefined;
    return this.engine.inspectContext();
  }
}
