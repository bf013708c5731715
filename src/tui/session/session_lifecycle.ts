import { emptyUsage } from '../../agent/events.js';
import type { Mode, Profile } from '../../config/types.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import type { SessionLog } from '../../session/log.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../tool/run_call.js';
import { freshStatus, type StatusInfo, UiStore } from '../state/store.js';
import { askApproval } from './approvals.js';
import { elicitInUi } from './elicitation.js';
import type { ConversationHost, ResumedSession } from './host.js';
import { ModelSlot } from './model_slot.js';
import { notice } from './notice.js';
import { peerMessageHandler } from './peer_messages.js';
import { carrySessionRules } from './permissions_panel.js';
import { spentSoFar } from './resumed_usage.js';
import { scheduledPromptHandler } from './scheduled.js';
import { settleTrust } from './trust_question.js';
import { showResumed } from './welcome.js';

export interface SessionOptions {
  host: ConversationHost;
  modelName?: string;
  profile?: Profile;
  mode?: Mode;
  resume?: ResumedSession;
  /** The store the first frame was drawn from, when the UI was up before the session. */
  store?: UiStore;
}

/** What the lifecycle tells the rest of the session. */
export interface LifecycleEvents {
  /** A scheduled prompt came due, or a peer's message came: it goes in as if typed. */
  submit(text: string, shown: string): void;
  /** Esc while a question is on screen. */
  interrupt(): void;
}

/**
 * The session's lifecycle: the store the UI draws, the model slot, the runtime it runs on (made, connected once the folder is trusted,
 * replaced, ended), its mode, its log (opened at the first prompt, closed on leaving) and the
 * session it resumed.
 */
export class SessionLifecycle {
  runtime: Runtime;
  private log?: SessionLog;
  private resumePath?: string;
  private resumed?: ResumedSession;
  /** The session whose log was last written: `resume with: lathe --resume <id>` on exit. */
  private loggedSessionId?: string;
  private autoEdits = false;
  /** Ends what the current runtime started (MCP servers, tasks, schedules, background commands). */
  private detach?: () => Promise<void>;
  private closing?: Promise<void>;
  private exited = false;

  readonly store: UiStore;
  readonly model: ModelSlot;
  private readonly host: ConversationHost;

  constructor(
    private readonly options: SessionOptions,
    private readonly events: LifecycleEvents,
  ) {
    const { host, resume } = options;
    this.host = host;
    this.runtime = this.newRuntime({ sessionId: resume?.id, profile: options.profile, mode: options.mode });
    const modelName = options.modelName ?? host.defaultModel(this.runtime);
    this.store = readyStore(
      options.store,
      freshStatus({
        model: modelName,
        mode: this.runtime.conditions.mode,
        profile: this.runtime.conditions.profile,
      }),
    );
    this.model = new ModelSlot(host, this.store, modelName);
  }

  /** What may wait until the prompt is on screen: what the runtime brings along. */
  connectInBackground(): void {
    if (!this.detach) this.connectOnceTrusted();
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
    const store = this.store;
    const release = this.host.attach(
      runtime,
      (line) => store.add(notice(line, 'warn')),
      (request, signal) => elicitInUi(store, request, signal),
    );
    const unsubscribe = runtime.onScheduledPrompt(
      scheduledPromptHandler(store, (text, shown) => this.events.submit(text, shown)),
    );
    const stopPeerMessages = runtime.onPeerMessage(
      peerMessageHandler(store, (text, shown) => this.events.submit(text, shown)),
    );
    this.detach = async () => {
      unsubscribe();
      stopPeerMessages();
      await release();
    };
  }

  newRuntime(options: { sessionId?: string; profile?: Profile; mode?: Mode }): Runtime {
    return this.host.createRuntime({ ...options, askUser: (request) => this.askUser(request) });
  }

  /** Another runtime (a profile, a resumed or a fresh session); "this session" rules carry over when kept. */
  replaceRuntime(runtime: Runtime, keepSessionRules: boolean): void {
    if (keepSessionRules) carrySessionRules(this.runtime.permissions, runtime.permissions);
    // The old runtime's servers, tasks and commands end; the new one's start.
    void this.detach?.();
    this.runtime = runtime;
    // The engine gives the next prompt a new agent on it, with the conversation so far.
    this.connect(runtime);
    this.model.reset();
    this.store.setStatus({ mode: runtime.conditions.mode, profile: runtime.conditions.profile });
    void this.model.load(runtime);
    this.recordSettings();
  }

  /** `/profile`: the same session on a runtime with another prompt profile. */
  switchProfile(profile: Profile): void {
    const { sessionId, conditions } = this.runtime;
    this.replaceRuntime(this.newRuntime({ sessionId, profile, mode: conditions.mode }), true);
  }

  /** What the session runs with now, so resuming it later restores the same. */
  recordSettings(): void {
    const { profile, mode } = this.runtime.conditions;
    this.log?.append({ type: 'settings_change', model: this.model.name, profile, mode });
  }

  /** Starts over: a new session with no log and nothing spent. */
  clear(): void {
    this.closeLog('cleared');
    const { profile, mode } = this.runtime.conditions;
    this.replaceRuntime(this.newRuntime({ profile, mode }), false);
    this.resumePath = undefined;
    const store = this.store;
    store.setTodo(undefined);
    // A new session starts from nothing spent: the cost line too.
    store.setStatus({ contextTokens: 0, usage: emptyUsage(), costUsd: undefined });
  }

  /** Continues a session from its log (`/resume`); its conversation is the caller's to take up. */
  resume(session: ResumedSession): void {
    this.closeLog('switched');
    this.replaceRuntime(
      this.newRuntime({ sessionId: session.id, profile: this.runtime.conditions.profile }),
      false,
    );
    this.adopt(session);
    showResumed(this.store, session, this.runtime.cwd);
  }

  /** Takes up a session's log: later records go to it, and the status line goes on from it. */
  adopt(session: ResumedSession): void {
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

  /** The session resumed at start, if any. */
  get resumedSession(): ResumedSession | undefined {
    return this.resumed;
  }

  /** The log records go to now; undefined before the first prompt. */
  get currentLog(): SessionLog | undefined {
    return this.log;
  }

  /** The log, opened on the first prompt (`shown` is that prompt, for the session list). */
  openLog(shown: string): SessionLog {
    const { profile, mode } = this.runtime.conditions;
    const store = this.store;
    this.log ??= this.host.openLog(
      this.runtime,
      this.resumePath,
      { model: this.model.name, profile, mode, prompt: shown },
      (line) => store.add(notice(line, 'warn')),
    );
    this.loggedSessionId = this.log.id;
    return this.log;
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
    const store = this.store;
    store.setStatus({ mode, autoEdits: this.autoEdits });
    store.flush();
  }

  private askUser(request: ApprovalRequest): Promise<ApprovalAnswer> {
    return askApproval(request, {
      store: this.store,
      runtime: this.runtime,
      autoEdits: this.autoEdits && this.runtime.conditions.mode === 'act',
      interrupt: () => this.events.interrupt(),
    });
  }

  /** Ends what the runtime started and closes the log (after the running step was stopped). */
  exit(): void {
    this.exited = true;
    this.runtime.stopBackgroundCommands();
    this.closing ??= this.detach?.().catch(() => undefined);
    this.closeLog('exit');
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
