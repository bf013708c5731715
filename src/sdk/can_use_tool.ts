import type { ApprovalAnswer, ApprovalRequest } from '../tool/run_call.js';
import type { CanUseTool } from './options.js';

const by = 'canUseTool';

/**
 * The program's `canUseTool` in the place of a person answering asks. A function that throws,
 * or answers with something else, denies: the call does not run and the model reads why.
 */
export function programApprovals(
  canUseTool: CanUseTool,
  signal: () => AbortSignal,
): (request: ApprovalRequest) => Promise<ApprovalAnswer> {
  return async (request) => {
    let answer: Awaited<ReturnType<CanUseTool>>;
    try {
      answer = await canUseTool(request.tool.name, request.input, {
        signal: signal(),
        reason: request.reason,
        ...(request.category ? { category: request.category } : {}),
        toolUseId: request.call.id,
        ...(request.agent ? { agent: request.agent } : {}),
      });
    } catch (error) {
      return {
        approved: false,
        feedback: `canUseTool failed: ${(error as Error)?.message ?? String(error)}`,
        by,
      };
    }
    if (answer?.behavior === 'allow') {
      const changed = answer.updatedInput;
      return changed ? { approved: true, updatedInput: changed, by } : { approved: true, by };
    }
    if (answer?.behavior === 'deny') return { approved: false, feedback: answer.message, by };
    return { approved: false, feedback: 'canUseTool gave no answer (allow or deny)', by };
  };
}
