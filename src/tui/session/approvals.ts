import { globalSettingsPath, workspaceSettingsPath } from '../../config/paths.js';
import { saveAllowRules } from '../../config/settings_rules.js';
import type { Runtime } from '../../runtime/create_runtime.js';
import { suggestRules } from '../../runtime/rule_suggestions.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../tool/run_call.js';
import type { Line } from '../render/style.js';
import { runsCommands } from '../render/tool_facts.js';
import { shownPath, toolTitle } from '../render/tool_line.js';
import type { ApprovalChoice, ApprovalData } from '../state/prompts.js';
import type { UiStore } from '../state/store.js';
import { approvalNote, approvalQuestion, declinedLine } from './approval_words.js';
import './tool_catalogue.js';

/** Lines of arguments shown for tools that are not edits or commands. */
const ARGUMENT_LINES = 30;

export interface ApprovalContext {
  store: UiStore;
  runtime: Runtime;
  /** Act mode with edits approved: edits inside the workspace need no answer. */
  autoEdits: boolean;
  /** Esc on an approval stops the step as well. */
  interrupt(): void;
}

/**
 * Asks the user about one call the permission engine would not decide alone. What will happen
 * is printed into the conversation first — the tool, its arguments, the colored diff of an edit,
 * the subcommands of a shell command — so the answer is given with it in view and it stays in
 * the scrollback afterwards. "Don't ask again" adds allow rules to the running engine, and when
 * saved, to the project's or the user's settings.
 */
export async function askApproval(request: ApprovalRequest, ctx: ApprovalContext): Promise<ApprovalAnswer> {
  const { store, runtime } = ctx;
  // Where calls work now: the home folder, or the worktree the session entered.
  const { cwd, workspace } = runtime.place;
  // Protected paths, Plan mode and commands without the sandbox ask every time: no rule to offer.
  const always = request.sticky !== undefined;
  if (ctx.autoEdits && request.category === 'edit' && !always) return { approved: true, by: 'rule' };
  const suggestion = always ? { rules: [], subcommands: [] } : await suggestRules(request, cwd, workspace);
  const { verb, detail } = toolTitle(request.tool.name, request.input, cwd);
  const folders = { cwd, workspace };
  // The change as the tool's own engine computes it; none when the call would fail (it says why).
  const change = await request.tool.describeChange(request.input, folders).catch(() => undefined);
  const diff = change?.diff;
  // A child's call has no tool line here (its id may even equal one of the parent's): its
  // proposal goes at the end, and the question names the child.
  const child = request.agent;
  const proposal = {
    kind: 'proposal' as const,
    title: child ? `${child.name} (${child.type}): ${verb} ${detail}` : `${verb} ${detail}`,
    lines: proposalLines(request, diff, suggestion.subcommands, cwd),
    ...(diff ? { diff } : {}),
  };
  store.settleText();
  if (child) store.add(proposal);
  else store.addBefore(request.call.id, proposal);
  const question = approvalQuestion(request, cwd);
  const data: ApprovalData = {
    kind: 'approval',
    title: child ? `${child.name} wants to: ${question}` : question,
    reason: request.reason,
    rules: suggestion.rules,
    subcommands: suggestion.subcommands,
    settingsFiles: {
      project: workspaceSettingsPath(runtime.workspace),
      user: globalSettingsPath(runtime.documentsRoot),
    },
  };
  // While it waits for the answer the call shows as pending; its time starts when it may run.
  // A diff shown here is not printed again with the result.
  if (!child) store.updateTool(request.call.id, { status: 'pending', diffShown: diff !== undefined });
  const choice = await store.ask<ApprovalChoice>({ ...data, cancelValue: { kind: 'interrupt' } });
  // A call declined says so in the user's words; the model reads its own message.
  const declined = declinedLine(question, choice);
  if (!child) store.updateTool(request.call.id, { status: 'running', startedAt: Date.now(), declined });
  switch (choice.kind) {
    case 'yes':
      return { approved: true };
    case 'always':
      await remember(choice.scope, data, ctx);
      return { approved: true };
    case 'no':
      return { approved: false, ...(choice.feedback ? { feedback: choice.feedback } : {}) };
    case 'interrupt':
      ctx.interrupt();
      return { approved: false, interrupted: true };
  }
}

async function remember(
  scope: 'session' | 'project' | 'user',
  data: ApprovalData,
  ctx: ApprovalContext,
): Promise<void> {
  const source = scope === 'session' ? 'this session' : data.settingsFiles[scope];
  if (scope !== 'session') {
    try {
      const added = await saveAllowRules(data.settingsFiles[scope], data.rules);
      ctx.store.add({
        kind: 'notice',
        tone: 'info',
        text: added.length > 0 ? `Saved to ${source}: ${added.join(', ')}` : `${source} already allows this.`,
      });
    } catch (error) {
      ctx.store.add({ kind: 'notice', tone: 'error', text: (error as Error).message });
    }
  } else
    ctx.store.add({
      kind: 'notice',
      tone: 'info',
      text: `Allowed for this session: ${data.rules.join(', ')}`,
    });
  // The running engine learns the rules at once (a saved file is read again only at the next start).
  ctx.runtime.permissions.addRules({ allow: data.rules }, source);
}

function proposalLines(
  request: ApprovalRequest,
  diff: string | undefined,
  subcommands: string[],
  cwd: string,
): Line[] {
  const gray = { color: 'muted' } as const;
  const lines: Line[] = [];
  // A diff is drawn as a card by the entry itself, at the terminal's width.
  if (diff === undefined && runsCommands(request.tool.name)) {
    const input = request.input as { command?: string; cwd?: string };
    for (const text of (input.command ?? '').split('\n')) lines.push([{ text: `  $ ${text}` }]);
    if (input.cwd) lines.push([{ text: `  in ${shownPath(input.cwd, cwd)}`, style: gray }]);
    if (subcommands.length > 1) {
      lines.push([{ text: '  subcommands:', style: gray }]);
      for (const sub of subcommands) lines.push([{ text: `    · ${sub}`, style: gray }]);
    }
  } else if (diff === undefined) {
    const json = JSON.stringify(request.input, null, 2) ?? '';
    const all = json.split('\n');
    for (const text of all.slice(0, ARGUMENT_LINES)) lines.push([{ text: `  ${text}` }]);
    if (all.length > ARGUMENT_LINES)
      lines.push([{ text: `  … ${all.length - ARGUMENT_LINES} more lines`, style: gray }]);
  }
  const note = approvalNote(request, cwd);
  if (note) lines.push([{ text: `  ${note}`, style: gray }]);
  return lines;
}
