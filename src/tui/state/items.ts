import type { SubagentTag } from '../../agent/events.js';
import type { Line } from '../render/style.js';

/** What one tool call shows: a line with its status and time, then a collapsed result. */
export interface ToolLine {
  id: string;
  name: string;
  input: unknown;
  status: 'pending' | 'running' | 'ok' | 'error' | 'cancelled';
  startedAt?: number;
  elapsedMs?: number;
  resultText?: string;
  savedPath?: string;
  /** The last lines a running command printed. */
  tail?: string[];
  /** What the running call last said it waits for (`checking diagnostics…`, an MCP server's `2/3 compiling`). */
  progress?: string;
  /** The working folder: paths inside it are shown relative to it. */
  cwd?: string;
  /** The edit's diff was printed at its approval, so the result does not print it again. */
  diffShown?: boolean;
  /** The user said no at its approval: what the screen says in place of the model's message. */
  declined?: string;
}

/** How a child ended, or that it still runs. */
export type ChildStatus = 'running' | 'completed' | 'failed' | 'budget_exhausted' | 'interrupted';

/** One thing a child did: a tool call with how it went, or something it said. */
export type ChildStep =
  | { kind: 'tool'; id: string; label: string; status: 'running' | 'ok' | 'error'; result?: string }
  | { kind: 'text'; text: string };

/** What the UI shows of one child agent. */
export interface ChildView extends SubagentTag {
  status: ChildStatus;
  startedAt: number;
  /** Set when it ended. */
  elapsedMs?: number;
  toolCalls: number;
  /** Input and output tokens so far. */
  tokens: number;
  /** What it is doing now: its latest tool call, or the last line it wrote. */
  doing?: string;
  /** What it was asked. */
  prompt?: string;
  /** Its latest steps, oldest first (capped). */
  steps: ChildStep[];
  /** Its final text, or why it stopped. */
  finalText?: string;
}

/** Something printed in the conversation. Once committed it is never rendered again. */
export type TranscriptEntry =
  | { kind: 'user'; text: string; queued?: boolean }
  | { kind: 'assistant'; markdown: string }
  | { kind: 'result'; markdown: string }
  | { kind: 'tool'; tool: ToolLine }
  /** Read-only calls made in a row, as one line; `open` prints each call's own line too (Ctrl+O). */
  | { kind: 'reads'; tools: ToolLine[]; open?: boolean }
  | { kind: 'notice'; text: string; tone: 'info' | 'warn' | 'error' }
  | { kind: 'working'; text: string }
  | { kind: 'report'; title: string; markdown: string; path: string }
  | { kind: 'plan'; markdown: string }
  | { kind: 'phase'; phase: string; markdown: string }
  | { kind: 'question'; question: string; answer: string }
  /** What an approval is about: a title, a change drawn as a card (`diff`), then lines. */
  | { kind: 'proposal'; title: string; lines: Line[]; diff?: string }
  | { kind: 'shell'; command: string; output: string; exitCode: number | null }
  | { kind: 'panel'; title?: string; lines: Line[] }
  /** A result printed in full (Ctrl+O); `savedPath`: the file holding all of it, when the text is a preview. */
  | { kind: 'expanded'; title: string; text: string; savedPath?: string }
  /** A child agent that ended, in one line. */
  | { kind: 'child'; child: ChildView };

export type TranscriptItem = TranscriptEntry & { key: number };

/** Something still changing, shown below the printed conversation. */
export type LiveEntry =
  /** The reply being written: its open block, and the fence line when a code block is open. */
  | { kind: 'stream'; text: string; fence?: string }
  | { kind: 'tool'; tool: ToolLine }
  | { kind: 'shell'; command: string; startedAt: number; tail: string[] }
  /** A finished entry waiting for the live entries before it, so the order stays. */
  | { kind: 'done'; entry: TranscriptEntry };

export type { TodoItem } from '../../tool/events.js';
