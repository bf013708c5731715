import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { AgentInteraction } from '../../tool/context/agent.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolOutput } from '../../tool/types.js';
import type { ApprovedPlanData } from '../../tool/work_record.js';
import { withInteraction } from './no_agent.js';

const planSchema = lazySchema(() =>
  z.strictObject({ plan: z.string().min(1).describe('The complete plan, in Markdown') }),
);

/** Presents a plan; on approval in Plan mode, the run goes back to the mode it came from. */
async function presentPlan(agent: AgentInteraction, plan: string): Promise<ToolOutput> {
  agent.emit({ type: 'plan', markdown: plan });
  const answer = await agent.confirm({ kind: 'plan', title: 'Plan', body: plan });
  const said = answer.feedback ? ` They said: ${answer.feedback}` : '';
  if (!answer.approved)
    return { text: `The plan was not approved.${said} Refine it, or ask what to change.` };
  // The session's work record keeps the approved plan (verify_plan_execution compares with it).
  const data: ApprovedPlanData = { approvedPlan: plan };
  if (agent.mode === 'plan') {
    agent.setMode(agent.previousMode === 'plan' ? 'act' : agent.previousMode);
    return {
      text: `The plan was approved and lathe left Plan mode (now ${agent.mode}).${said} Carry it out.`,
      data,
    };
  }
  return { text: `The plan was approved.${said} Carry it out.`, data };
}

export const makePlan = buildTool({
  name: 'make_plan',
  inputSchema: planSchema,
  description:
    'Submit a complete implementation or design plan for the user to approve. In Plan mode an approved plan ' +
    'switches to Act mode so it can be carried out.',
  liteDescription: 'Submit a plan for approval.',
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Plan',
  isReadOnly: () => true,
  call: (input, ctx) => withInteraction(ctx, 'make_plan', (agent) => presentPlan(agent, input.plan)),
});

export const exitPlanMode = buildTool({
  name: 'exit_plan_mode',
  inputSchema: planSchema,
  description: 'Leave Plan mode: present the finished plan for approval; once approved, carry it out.',
  availability: { profiles: ['standard'], modes: ['plan'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Leave Plan mode',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: (input, ctx) => withInteraction(ctx, 'exit_plan_mode', (agent) => presentPlan(agent, input.plan)),
});

export const enterPlanMode = buildTool({
  name: 'enter_plan_mode',
  inputSchema: lazySchema(() => z.strictObject({})),
  description:
    'Switch to Plan mode to explore and design before changing anything: only read-only tools run freely ' +
    'until a plan is approved (exit_plan_mode).',
  availability: { profiles: ['standard'], modes: ['act'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Enter Plan mode',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  call: (_input, ctx) =>
    withInteraction(ctx, 'enter_plan_mode', (agent) => {
      agent.setMode('plan');
      return { text: 'Now in Plan mode: read and design; present the plan with exit_plan_mode.' };
    }),
});
