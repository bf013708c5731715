import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { readWork } from '../../tool/work_record.js';
import { runGit } from '../../util/safe_git.js';
import { type StepVerdict, unplannedFiles, verifySteps, workAfterPlan } from './plan_check.js';
import { planSteps } from './plan_steps.js';

/** Files git reports changed or new in the workspace (relative), or none outside a repository. */
async function treeChanges(workspace: string): Promise<string[]> {
  const status = await runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all'], {
    cwd: workspace,
    timeoutMs: 30_000,
  });
  if (status.status !== 0) return [];
  const prefix = await runGit(['rev-parse', '--show-prefix'], { cwd: workspace, timeoutMs: 10_000 });
  const inside = prefix.status === 0 ? prefix.stdout.trim() : '';
  const files: string[] = [];
  const fields = status.stdout.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i];
    if (field.length < 4) continue;
    // A rename's old name follows as the next field.
    if (field[0] === 'R' || field[0] === 'C') i++;
    const path = field.slice(3);
    // git names paths from the repository's top; the plan names them from the workspace.
    if (path.startsWith(inside)) files.push(path.slice(inside.length));
  }
  return files;
}

function verdictLines(verdict: StepVerdict): string {
  return [
    `${verdict.n}. [${verdict.status}] ${verdict.title}`,
    ...verdict.evidence.map((e) => `   - ${e}`),
  ].join('\n');
}

export const verifyPlanExecution = buildTool({
  name: 'verify_plan_execution',
  inputSchema: lazySchema(() => z.strictObject({})),
  description:
    'Check the work against the approved plan (make_plan / exit_plan_mode) before you report completion: each step ' +
    "is marked done, not done or changed, with evidence from the session's record — files changed (and by which tool), " +
    'commands run and their exit codes, test runs — and git status for changes made by commands. Steps that name no ' +
    'file, command or test are marked unverified. Fix what is not done, or say why it changed.',
  availability: { profiles: ['standard'], feature: 'verify_plan' },
  kind: 'other',
  userFacingName: () => 'Verify plan',
  // lathe's own fact: it reads the session's record and git status, so Plan mode lets it run.
  planModeAllowed: true,
  example: { input: {} },
  async call(_input, ctx) {
    const entries = readWork(ctx.sessionDir);
    const planAt = entries.map((e) => e.type).lastIndexOf('plan');
    const plan = entries[planAt];
    if (plan?.type !== 'plan')
      return {
        isError: true,
        text: 'No approved plan in this session: present one with make_plan (or exit_plan_mode) and have it approved first.',
      };
    const work = workAfterPlan(entries.slice(planAt + 1), ctx.workspace, await treeChanges(ctx.workspace));
    const steps = planSteps(plan.plan);
    const verdicts = verifySteps(steps, work);
    const unplanned = unplannedFiles(steps, work);
    const count = (status: string) => verdicts.filter((v) => v.status === status).length;
    const summary = (['done', 'changed', 'not done', 'unverified'] as const)
      .map((status) => `${count(status)} ${status}`)
      .join(', ');
    const outside = unplanned.length ? `\nChanged but not in the plan: ${unplanned.join(', ')}` : '';
    const commands = work.commands.length
      ? `\nCommands run since the approval: ${work.commands.length}`
      : '\nNo commands were run since the approval.';
    return {
      text: `Plan approved ${plan.at}; ${steps.length} step(s): ${summary}.\n${verdicts.map(verdictLines).join('\n')}${outside}${commands}`,
      data: { approvedAt: plan.at, steps: verdicts, unplanned },
    };
  },
});
