import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { SdkEventMessage, SdkMessage } from '../sdk/messages.js';
import type { ChangePreview } from '../tool/types.js';
import { acpKind, type CallFolders, callLocations, callTitle, declaredTool } from './tool_calls.js';

/** Characters of a tool's result an update carries (the model got it whole, or its saved file). */
const RESULT_CHARS = 20_000;
/** Lines of a child agent's progress its tool call shows. */
const PROGRESS_LINES = 12;

interface CallState {
  name: string;
  input: unknown;
  diffs: ToolCallContent[];
  /** The call was shown to the client (its `tool_call` sent). */
  shown: boolean;
  progress: string[];
  done: boolean;
  /** The editor's terminal the command runs in, shown with the call to its end. */
  terminal?: ToolCallContent;
}

const text = (value: string): ToolCallContent => ({
  type: 'content',
  content: { type: 'text', text: value },
});

/**
 * The session's messages (what `query()` yields) as the protocol's `session/update`s. It keeps
 * what the updates of a call build on: its name and input, its diff, a child agent's progress.
 */
export class UpdateMapper {
  private readonly calls = new Map<string, CallState>();
  /** The model's context window, for usage updates (from the init record). */
  contextWindow: number | null = null;

  constructor(private readonly folders: () => CallFolders) {}

  /** The updates one message makes; `replaying` a session log (its text is whole, not in pieces). */
  map(message: SdkMessage, replaying = false): SessionUpdate[] {
    if (message.type === 'system' || message.type === 'result') return [];
    return this.event(message, replaying);
  }

  /**
   * The change an edit will make, known before it runs: part of its `tool_call` when that is still
   * to come, else an update now.
   */
  setChange(id: string, change: ChangePreview): SessionUpdate[] {
    const diffs: ToolCallContent[] = (change.files ?? []).map((file) => ({
      type: 'diff',
      path: file.path,
      oldText: file.oldText,
      newText: file.newText ?? '',
    }));
    if (diffs.length === 0) return [];
    const call = this.calls.get(id);
    if (!call) {
      this.calls.set(id, { name: '', input: undefined, diffs, shown: false, progress: [], done: false });
      return [];
    }
    call.diffs = diffs;
    return call.shown ? [{ sessionUpdate: 'tool_call_update', toolCallId: id, content: diffs }] : [];
  }

  /** A command started in the editor's terminal: the running call shows it. */
  setTerminal(id: string, terminalId: string): SessionUpdate[] {
    const call = this.calls.get(id);
    if (!call?.shown || call.done) return [];
    call.terminal = { type: 'terminal', terminalId };
    return [{ sessionUpdate: 'tool_call_update', toolCallId: id, content: [call.terminal] }];
  }

  /** The call as the protocol shows it (also in permission requests). */
  describeCall(id: string, name: string, input: unknown) {
    const folders = this.folders();
    return {
      toolCallId: id,
      title: callTitle(name, input, folders),
      kind: acpKind(declaredTool(name)?.kind),
      locations: callLocations(name, input, folders),
      rawInput: input,
    };
  }

  /** The diffs known for a call. */
  diffsOf(id: string): ToolCallContent[] {
    return this.calls.get(id)?.diffs ?? [];
  }

  private event(event: SdkEventMessage, replaying: boolean): SessionUpdate[] {
    switch (event.type) {
      case 'text_delta':
        return [chunk('agent_message_chunk', event.text)];
      case 'thinking_delta':
        return [chunk('agent_thought_chunk', event.text)];
      case 'assistant_text':
        // Live, the text came in deltas; a log keeps only the whole.
        return replaying && event.text.trim() ? [chunk('agent_message_chunk', event.text)] : [];
      case 'user_message':
        return replaying ? [chunk('user_message_chunk', event.text)] : [];
      case 'working':
        return [chunk('agent_thought_chunk', `${event.message}\n`)];
      case 'tool_call':
        return this.toolCall(event.id, event.name, event.input);
      case 'tool_start':
        return [{ sessionUpdate: 'tool_call_update', toolCallId: event.id, status: 'in_progress' }];
      case 'tool_result':
        return this.toolResult(event);
      case 'todo':
        return [
          {
            sessionUpdate: 'plan',
            entries: event.items.map((item) => ({
              content: item.text,
              status: item.status,
              priority: 'medium',
            })),
          },
        ];
      case 'plan':
        return [...planUpdate(event.markdown), chunk('agent_message_chunk', `${event.markdown}\n`)];
      case 'mode_change':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }];
      case 'usage':
        return this.contextWindow
          ? [{ sessionUpdate: 'usage_update', used: event.context_tokens, size: this.contextWindow }]
          : [];
      case 'phase_report':
      case 'report':
        return [chunk('agent_message_chunk', `\n${event.markdown}\n`)];
      case 'question':
        return [chunk('agent_message_chunk', `\n${event.question}\n→ ${event.answer}\n`)];
      case 'error':
        return [chunk('agent_message_chunk', `\nError: ${event.message}\n`)];
      case 'subagent':
        return this.childProgress(event);
      default: {
        const other = event as { type: string; text?: unknown };
        // A model's reasoning, where the core reports it.
        if (other.type === 'thinking' && typeof other.text === 'string')
          return [chunk('agent_thought_chunk', other.text)];
        return [];
      }
    }
  }

  private toolCall(id: string, name: string, input: unknown): SessionUpdate[] {
    const known = this.calls.get(id);
    const call: CallState = {
      name,
      input,
      diffs: known?.diffs ?? [],
      shown: true,
      progress: [],
      done: false,
    };
    this.calls.set(id, call);
    return [
      {
        sessionUpdate: 'tool_call',
        ...this.describeCall(id, name, input),
        status: 'pending',
        ...(call.diffs.length ? { content: call.diffs } : {}),
      },
    ];
  }

  private toolResult(event: Extract<SdkEventMessage, { type: 'tool_result' }>): SessionUpdate[] {
    const call = this.calls.get(event.id);
    if (call) call.done = true;
    const shown = event.text.length > RESULT_CHARS ? `${event.text.slice(0, RESULT_CHARS)}\n…` : event.text;
    const content: ToolCallContent[] = [
      ...(call?.diffs ?? []),
      ...(call?.terminal ? [call.terminal] : []),
      ...(call?.progress.length ? [text(call.progress.join('\n'))] : []),
      ...(shown ? [text(shown)] : []),
    ];
    const update: SessionUpdate = {
      sessionUpdate: 'tool_call_update',
      toolCallId: event.id,
      status: event.is_error ? 'failed' : 'completed',
      content,
      rawOutput: { text: shown, is_error: event.is_error },
    };
    // A call seen only now (a log without its call record) is shown whole.
    if (!call?.shown) return [...this.toolCall(event.id, event.name, undefined), update];
    return [update];
  }

  /** A child agent's events: progress lines on the call that started it. */
  private childProgress(event: Extract<SdkEventMessage, { type: 'subagent' }>): SessionUpdate[] {
    const id = this.runningAgentCall();
    if (!id) return [];
    const line = progressLine(event.event, this.folders());
    if (!line) return [];
    const call = this.calls.get(id)!;
    call.progress.push(`${event.agent.name}: ${line}`);
    if (call.progress.length > PROGRESS_LINES) call.progress.splice(0, call.progress.length - PROGRESS_LINES);
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: id,
        status: 'in_progress',
        content: [text(call.progress.join('\n'))],
      },
    ];
  }

  /** The latest call still running that runs agents: a child's events belong to it. */
  private runningAgentCall(): string | undefined {
    let found: string | undefined;
    for (const [id, call] of this.calls)
      if (!call.done && call.shown && declaredTool(call.name)?.kind === 'agent') found = id;
    return found;
  }
}

function chunk(
  kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk',
  value: string,
): SessionUpdate {
  return { sessionUpdate: kind, content: { type: 'text', text: value } };
}

/** A plan's list items as the protocol's plan entries; none when it has no list. */
function planUpdate(markdown: string): SessionUpdate[] {
  const entries: PlanEntry[] = [];
  for (const line of markdown.split('\n')) {
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[( |x|X)\]\s+)?(.+)$/.exec(line);
    if (item)
      entries.push({
        content: item[2].trim(),
        status: item[1] && item[1] !== ' ' ? 'completed' : 'pending',
        priority: 'medium',
      });
  }
  return entries.length ? [{ sessionUpdate: 'plan', entries }] : [];
}

/** One line of a child's progress: its calls, its text, its end. */
function progressLine(
  event: SdkEventMessage | { type: 'done'; outcome: Record<string, unknown> },
  folders: CallFolders,
): string | undefined {
  switch (event.type) {
    case 'tool_call':
      return callTitle(event.name, event.input, folders);
    case 'assistant_text': {
      const first = event.text.trim().split('\n')[0] ?? '';
      return first ? first.slice(0, 200) : undefined;
    }
    case 'done':
      return `done (${String(event.outcome.kind ?? 'ended')})`;
    default:
      return undefined;
  }
}
