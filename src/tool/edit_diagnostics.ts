import { resolve } from 'node:path';
import type { Tool, ToolContext, ToolResult } from './types.js';

/**
 * After a successful call of a tool that changes files: its result ends with what the language
 * servers now say of the files it changed (the files its permission check judged, else those it
 * declares), or why they said nothing. When a server is still starting and the call runs for an
 * agent, the result says `diagnostics: pending` and the diagnostics join the agent's pending
 * notes. Results of other calls pass through unchanged.
 */
export async function withEditDiagnostics(
  tool: Tool,
  input: unknown,
  ctx: ToolContext,
  result: ToolResult,
  call: { checkedFiles?: readonly string[]; since: number },
): Promise<ToolResult> {
  const servers = ctx.languageServers;
  if (result.isError || !servers || !tool.touchedPaths) return result;
  const named = call.checkedFiles ?? tool.touchedPaths(input, ctx);
  const files = named.filter((p) => !p.includes('*')).map((p) => resolve(ctx.cwd, p));
  if (files.length === 0) return result;
  const pending = ctx.interaction?.pendingNotes;
  const answer = await servers
    .diagnosticsAfterEdit(files, {
      since: call.since,
      signal: ctx.signal,
      workspace: ctx.workspace,
      deliverLater: pending !== undefined,
      progress: ctx.progress,
    })
    .catch((error: Error) => ({ line: `diagnostics: unavailable (${error.message})`, later: undefined }));
  if (!answer) return result;
  const key = `diagnostics\0${[...files].sort().join('\0')}`;
  if (answer.later) pending?.add(key, answer.later);
  else pending?.drop(key);
  return { ...result, text: `${result.text}\n${answer.line}` };
}
