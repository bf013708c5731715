import { globalSettingsPath, workspaceSettingsPath } from '../config/paths.js';
import { saveRules } from '../config/settings_rules.js';
import type { Runtime } from '../runtime/create_runtime.js';
import { suggestRules } from '../runtime/rule_suggestions.js';
import type { EditorAccess } from '../tool/context/editor.js';
import type { ApprovalAnswer, ApprovalRequest } from '../tool/run_call.js';
import type { ChangePreview } from '../tool/types.js';
import type { CanUseTool, PermissionAnswer, RememberScope } from './options.js';

const by = 'canUseTool';

/**
 * The program's `canUseTool` in the place of a person answering asks. A function that throws,
 * or answers with something else, denies: the call does not run and the model reads why.
 */
export function programApprovals(
  canUseTool: CanUseTool,
  signal: () => AbortSignal,
  runtime: () => Runtime | undefined,
  report: (line: string) => void,
  /** The program's buffers: the change is shown as the edit would make it there. */
  editor?: EditorAccess,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    const place = runtime()?.place;
    // Protected paths, Plan mode and commands without the sandbox ask every time: no rule to offer.
    const sticky = request.sticky !== undefined;
    const [change, suggestion] = place
      ? await Promise.all([
          request.tool.describeChange(request.input, { ...place, editor }).catch(() => undefined),
          sticky ? undefined : suggestRules(request, place.cwd, place.workspace).catch(() => undefined),
        ])
      : [undefined, undefined];
    const suggestedRules = suggestion?.rules ?? [];
    let answer: Awaited<ReturnType<CanUseTool>>;
    try {
      answer = await canUseTool(request.tool.name, request.input, {
        signal: signal(),
        reason: request.reason,
        ...(request.category ? { category: request.category } : {}),
        toolUseId: request.call.id,
        ...(request.agent ? { agent: request.agent } : {}),
        kind: request.tool.kind,
        ...(change ? { change: change as ChangePreview } : {}),
        suggestedRules,
        sticky,
      });
    } catch (error) {
      return {
        approved: false,
        feedback: `canUseTool failed: ${(error as Error)?.message ?? String(error)}`,
        by,
      };
    }
    if (answer?.behavior === 'allow' || answer?.behavior === 'deny') {
      const current = runtime();
      if (answer.remember && current && suggestedRules.length > 0)
        await remember(current, answer.behavior, answer.remember, suggestedRules, report);
    }
    if (answer?.behavior === 'allow') {
      const changed = answer.updatedInput;
      return changed ? { approved: true, updatedInput: changed, by } : { approved: true, by };
    }
    if (answer?.behavior === 'deny') return { approved: false, feedback: answer.message, by };
    return { approved: false, feedback: 'canUseTool gave no answer (allow or deny)', by };
  };
}

/**
 * "Always": the suggested rules join the running engine at once, and unless only for this session,
 * the project's or the user's settings file (as the UI's "don't ask again" does).
 */
async function remember(
  runtime: Runtime,
  behavior: PermissionAnswer['behavior'],
  scope: RememberScope,
  rules: string[],
  report: (line: string) => void,
): Promise<void> {
  const action = behavior === 'allow' ? 'allow' : 'deny';
  const file =
    scope === 'project'
      ? workspaceSettingsPath(runtime.workspace)
      : scope === 'user'
        ? globalSettingsPath(runtime.documentsRoot)
        : undefined;
  if (file) {
    try {
      await saveRules(file, action, rules);
    } catch (error) {
      report(`could not save ${rules.join(', ')}: ${(error as Error).message}`);
    }
  }
  runtime.permissions.addRules({ [action]: rules }, file ?? 'this session');
}
