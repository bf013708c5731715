import type { SessionEvent } from './log.js';

/** Tool inputs and results are cut to this many characters: the transcript is for reading. */
export const EXPORT_BLOCK_CHARS = 2000;

/** A readable Markdown transcript of a session's events. */
export function exportMarkdown(events: SessionEvent[]): string {
  const blocks: string[] = [];
  let sawStart = false;
  let previousType: string | undefined;
  for (const event of events) {
    // Consecutive assistant text reads as one reply, so it shares one heading.
    if (event.type === 'assistant_text' && previousType === 'assistant_text' && blocks.length > 0) {
      blocks[blocks.length - 1] += `\n\n${text(event.text)}`;
      continue;
    }
    if (event.type === 'session_start' && !sawStart) {
      sawStart = true;
      previousType = event.type;
      blocks.push(renderHeader(event));
      continue;
    }
    const block = renderEvent(event);
    // Bookkeeping (request starts, raw model messages, …) is not part of the transcript.
    if (block === undefined) continue;
    previousType = event.type;
    blocks.push(block);
  }
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}

function renderHeader(event: SessionEvent): string {
  const meta = isRecord(event.meta) ? event.meta : {};
  const lines = [`# Session ${text(event.id) || '(unknown id)'}`, ''];
  if (event.workspace !== undefined) lines.push(`- Workspace: \`${text(event.workspace)}\``);
  if (meta.model !== undefined) lines.push(`- Model: ${text(meta.model)}`);
  if (event.time !== undefined) lines.push(`- Started: ${text(event.time)}`);
  if (lines.length === 2) lines.pop();
  return lines.join('\n');
}

function renderEvent(event: SessionEvent): string | undefined {
  switch (event.type) {
    case 'user_message':
      return `## User\n\n${text(event.text)}`;
    case 'assistant_text':
      return `## Assistant\n\n${text(event.text)}`;
    case 'tool_call':
      return `**tool** \`${text(event.name)}\`\n\n${fenced(truncate(json(event.input)), 'json')}`;
    case 'tool_result': {
      const result = isRecord(event.result) ? event.result : {};
      const label =
        result.isError === true
          ? `**error** from \`${text(event.name)}\``
          : `**result** \`${text(event.name)}\``;
      const saved =
        result.savedPath !== undefined ? `\n\n(whole result saved at \`${text(result.savedPath)}\`)` : '';
      return `${label}\n\n${fenced(truncate(text(result.text)))}${saved}`;
    }
    case 'question':
      return `**Question:** ${text(event.question)}\n\n**Answer:** ${text(event.answer)}`;
    case 'phase_report':
      return `## ${text(event.phase)}\n\n${text(event.markdown)}`;
    case 'report':
      return `## Report${event.title !== undefined ? `: ${text(event.title)}` : ''}\n\n${text(event.markdown)}`;
    case 'plan':
      return `## Plan\n\n${text(event.markdown)}`;
    case 'mode_change':
      return `*Mode changed to ${text(event.mode)}*`;
    case 'brief':
      return `*Brief mode ${event.on === true ? 'on' : 'off'}*`;
    case 'user_file':
      return `**File for the user:** \`${text(event.absolutePath)}\`${event.caption !== undefined ? ` — ${text(event.caption)}` : ''}`;
    case 'notification':
      return `**Notification:** ${text(event.title)} — ${text(event.body)}`;
    case 'compaction':
      return `## Compacted context\n\n${text(event.summary)}`;
    case 'error':
      return blockquote(`**Error:** ${text(event.message)}`);
    case 'session_resumed': {
      const model = isRecord(event.meta) ? text(event.meta.model) : '';
      return `*Resumed${model ? ` with ${model}` : ''}*`;
    }
    case 'session_end': {
      const lines = ['---', '', `*Session ended: ${text(event.reason) || 'unknown'}*`];
      if (event.usage !== undefined) lines.push('', `Usage: \`${JSON.stringify(event.usage)}\``);
      return lines.join('\n');
    }
    default:
      return undefined;
  }
}

/** A field as text; events come from disk, so fields may be missing or of another type. */
function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  const result = typeof value === 'string' ? value : JSON.stringify(value);
  return result.replace(/\s+$/, '');
}

function json(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

function truncate(value: string, max = EXPORT_BLOCK_CHARS): string {
  if (value.length <= max) return value;
  return `${value.slice(0, max)}\n… [truncated, ${value.length} chars in total]`;
}

/** A fence longer than any backtick run inside, so tool output can't close it early. */
function fenced(body: string, language = ''): string {
  const longestRun = Math.max(0, ...(body.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longestRun + 1));
  return `${fence}${language}\n${body}\n${fence}`;
}

function blockquote(body: string): string {
  return body
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
