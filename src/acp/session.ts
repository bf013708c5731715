import type {
  AgentContext,
  AvailableCommand,
  ClientCapabilities,
  ContentBlock,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk';
import type { Profile } from '../config/types.js';
import type { Elicit } from '../mcp/elicitation.js';
import { MessageQueue } from '../sdk/message_queue.js';
import type { SdkInitMessage, SdkMessage, SdkResultMessage, SdkUserMessage } from '../sdk/messages.js';
import type { QueryOptions } from '../sdk/options.js';
import { type Query, query } from '../sdk/query.js';
import type { EditorAccess } from '../tool/context/editor.js';
import { builtinTools } from '../tools/index.js';
import { clientBackends } from './client_backends.js';
import { editorElicitation } from './elicitation.js';
import { type AcpModeId, latheMode } from './modes.js';
import { editorApprovals } from './permissions.js';
import { userMessage } from './prompt_content.js';
import type { CallFolders } from './tool_calls.js';
import { declaredTool } from './tool_calls.js';
import { UpdateMapper } from './updates.js';

/** The tools that change files, whose change is computed before they run (the hook runs for no other). */
const FILE_CHANGERS = `^(${builtinTools()
  .filter((tool) => tool.touchedPaths !== undefined)
  .map((tool) => tool.name)
  .join('|')})$`;

/** One prompt turn: answered with its stop reason once its result is in, or at once when cancelled. */
interface Turn {
  finish(reason: StopReason): void;
  cancelled: boolean;
  /** The conversation has taken the prompt (its user message came): an interrupt reaches it. */
  started: boolean;
}

/** One `query()` of the session: the prompts it reads, and the loop that reads its messages. */
interface Run {
  query: Query;
  prompts: MessageQueue<SdkUserMessage>;
  ended: Promise<void>;
  /** A prompt was sent: the conversation is up, and takes a new model itself. */
  prompted: boolean;
}

export interface SessionSetup {
  id: string;
  cwd: string;
  client: AgentContext;
  /** The options every query of the session starts from (model, endpoint, settings, MCP servers, editor). */
  options: QueryOptions;
  /** The mode to start in; without it, the session's own (a resumed one's last). */
  mode?: AcpModeId;
  /** The session has a log to go on from. */
  logged: boolean;
  /** What the editor offered in `initialize`: its files and terminals are used when it did. */
  clientCapabilities?: ClientCapabilities;
}

/**
 * An editor's session: one `query()` fed by `session/prompt`, its messages sent as
 * `session/update`s, its asks as `session/request_permission`. A profile change starts the next
 * prompt in a new query that resumes the same session log.
 */
export class AcpSession {
  readonly id: string;
  readonly client: AgentContext;
  readonly mapper: UpdateMapper;
  mode: AcpModeId;
  model = '';
  profile: Profile = 'standard';
  commands: AvailableCommand[] = [];
  private folders: CallFolders;
  /** The editor's buffers and terminals; undefined when it offered none. */
  private readonly editor: EditorAccess | undefined;
  /** The MCP servers' questions, asked in the editor; undefined when it offered no elicitation. */
  private readonly elicit: Elicit | undefined;
  private run?: Run;
  private turns: Turn[] = [];
  /** A profile or model chosen before the first prompt of a query: the next prompt starts a new one. */
  private restartPending = false;
  private logged: boolean;
  private closed = false;
  private modeChosen: boolean;

  constructor(private readonly setup: SessionSetup) {
    this.id = setup.id;
    this.client = setup.client;
    this.mode = setup.mode ?? 'act';
    this.modeChosen = setup.mode !== undefined;
    this.logged = setup.logged;
    this.folders = { cwd: setup.cwd, workspace: setup.cwd };
    this.mapper = new UpdateMapper(() => this.folders);
    this.elicit = editorElicitation(setup.id, setup.client, setup.clientCapabilities);
    this.editor = clientBackends(setup.client, setup.id, setup.clientCapabilities, {
      // A command runs in the editor's terminal: its tool call shows that terminal.
      onTerminal: (terminalId, command) => {
        if (command.toolUseId)
          for (const update of this.mapper.setTerminal(command.toolUseId, terminalId)) this.notify(update);
      },
    });
  }

  /** Starts the session's query; resolves once it is ready (model loaded, MCP servers up), else throws why not. */
  async start(profile?: Profile): Promise<void> {
    const prompts = new MessageQueue<SdkUserMessage>(() => undefined);
    const options: QueryOptions = {
      ...this.setup.options,
      cwd: this.setup.cwd,
      ...(this.modeChosen ? { mode: latheMode(this.mode) } : {}),
      ...(profile ? { profile } : {}),
      ...(this.model ? { model: this.model } : {}),
      ...(this.logged ? { resume: this.id } : { sessionId: this.id }),
      ...(this.editor ? { editor: this.editor } : {}),
      ...(this.elicit ? { elicit: this.elicit } : {}),
      canUseTool: editorApprovals({
        id: this.id,
        client: this.client,
        mapper: this.mapper,
        autoEdits: () => this.mode === 'act-edits',
        notify: (update) => this.notify(update),
      }),
      hooks: { PreToolUse: [{ matcher: FILE_CHANGERS, hooks: [(input) => this.previewChange(input)] }] },
    };
    const running = query({ prompt: prompts, options });
    let ready: (init: SdkInitMessage) => void = () => undefined;
    const init = new Promise<SdkInitMessage>((resolve) => {
      ready = resolve;
    });
    const ended = this.read(running, ready);
    this.run = { query: running, prompts, ended, prompted: false };
    const first = await Promise.race([init, running.result.then(() => undefined)]);
    if (!first) throw new Error('the session ended before it started');
    this.take(first);
  }

  /** Sends a prompt; resolves with how its turn ended. */
  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    if (this.closed) throw new Error(`session ${this.id} is closed`);
    const message = userMessage(blocks);
    if (this.restartPending) await this.restart();
    const run = this.run!;
    run.prompted = true;
    return new Promise<StopReason>((resolve) => {
      let done = false;
      this.turns.push({
        cancelled: false,
        started: false,
        finish: (reason) => {
          if (done) return;
          done = true;
          resolve(reason);
        },
      });
      this.logged = true;
      run.prompts.push(message);
    });
  }

  /** Ends the running turn now (`cancelled`); what it still produces is not sent. */
  cancel(): void {
    const turn = this.turns[0];
    if (!turn || turn.cancelled) return;
    turn.cancelled = true;
    turn.finish('cancelled');
    // A prompt the conversation has not taken yet is interrupted as it starts.
    if (turn.started) void this.run?.query.interruptTurn();
  }

  async setMode(mode: AcpModeId): Promise<void> {
    this.mode = mode;
    this.modeChosen = true;
    await this.run?.query.setMode(latheMode(mode));
  }

  /** The next prompt is answered by this model. */
  async setModel(model: string): Promise<void> {
    if (this.run?.prompted) await this.run.query.setModel(model);
    else this.restartPending = true;
    this.model = model;
  }

  /** The next prompt runs with this profile (the tools and prompt differ: a new query resumes the session). */
  setProfile(profile: Profile): void {
    if (profile !== this.profile) this.restartPending = true;
    this.profile = profile;
  }

  /** Ends the session: a running turn is stopped, the log saved, every process it started ended. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const turn of this.turns) turn.finish('cancelled');
    const run = this.run;
    if (!run) return;
    run.prompts.end();
    await run.query.interrupt();
    await run.ended;
    await run.query.result.catch(() => undefined);
  }

  /** Sends an update of this session; updates go out in the order they are made. */
  notify(update: SessionUpdate): void {
    void this.client.notify('session/update', { sessionId: this.id, update }).catch(() => undefined);
  }

  private async restart(): Promise<void> {
    this.restartPending = false;
    const old = this.run;
    if (old) {
      old.prompts.end();
      await old.ended;
      await old.query.result.catch(() => undefined);
    }
    await this.start(this.profile);
  }

  private take(init: SdkInitMessage): void {
    this.model = init.model;
    this.profile = init.profile;
    if (!this.modeChosen) this.mode = init.mode;
    this.folders = { cwd: init.cwd, workspace: init.cwd };
    this.mapper.contextWindow = init.context_window ?? null;
    this.commands = (init.slash_commands ?? []).map((command) => ({
      name: command.name,
      description: command.description,
      ...(command.argument_hint ? { input: { hint: command.argument_hint } } : {}),
    }));
  }

  /** The query's messages: updates of the turn they belong to, its result the turn's end. */
  private async read(running: Query, ready: (init: SdkInitMessage) => void): Promise<void> {
    try {
      for await (const message of running as AsyncIterable<SdkMessage>) {
        if (message.type === 'system') {
          ready(message);
          continue;
        }
        const turn = this.turns[0];
        if (message.type === 'user_message' && turn && !turn.started) {
          turn.started = true;
          if (turn.cancelled) void running.interruptTurn();
        }
        if (message.type === 'result') {
          this.turns.shift();
          turn?.finish(stopReason(message));
          continue;
        }
        if (turn?.cancelled || this.closed) continue;
        for (const update of this.mapper.map(message)) this.notify(update);
      }
    } catch {
      // The run failed: the waiting turns end below; session/new reports a failure to start.
    } finally {
      for (const turn of this.turns.splice(0)) turn.finish(turn.cancelled ? 'cancelled' : 'end_turn');
    }
  }

  /** Before an edit runs (PreToolUse): its change, computed by the tool, joins its tool call. */
  private async previewChange(input: Record<string, unknown>): Promise<undefined> {
    if (input.agent_id !== undefined) return undefined;
    const tool = declaredTool(String(input.tool_name));
    const id = String(input.tool_use_id);
    if (!tool?.touchedPaths) return undefined;
    const cwd = typeof input.cwd === 'string' ? input.cwd : this.folders.cwd;
    const change = await tool
      .describeChange(input.tool_input, { cwd, workspace: this.folders.workspace, editor: this.editor })
      .catch(() => undefined);
    if (!change || this.turns[0]?.cancelled) return undefined;
    for (const update of this.mapper.setChange(id, change)) this.notify(update);
    return undefined;
  }
}

function stopReason(result: SdkResultMessage): StopReason {
  switch (result.outcome) {
    case 'aborted':
      return 'cancelled';
    case 'max_turns':
      return 'max_turn_requests';
    case 'max_tokens':
    case 'max_cost':
      return 'max_tokens';
    default:
      return 'end_turn';
  }
}
