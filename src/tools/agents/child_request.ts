import { z } from 'zod';
import type { AgentTypeSummary, SubagentReport, SubagentRequest } from '../../tool/context/agents.js';
import type { Availability, ToolContext, ToolOutput } from '../../tool/types.js';

export const AGENT_TOOLS_AVAILABILITY: Availability = {
  profiles: ['standard'],
  feature: 'subagents',
  requires: ['childAgents'],
};

/** The `type` parameter's text: every type the runtime has, each with what it is for. */
function typeDescription(types: readonly AgentTypeSummary[]): string {
  if (types.length === 0) return 'Agent type; default general.';
  const list = types.map((t) => `${t.name}: ${t.description}`).join('; ');
  return `Agent type, default general. ${list}`;
}

/** One child to run, as the model writes it; the `type` text lists the runtime's types. */
export function childRequestSchema(types: readonly AgentTypeSummary[]) {
  return z.strictObject({
    description: z
      .string({ error: 'description is missing: name the task in a few words' })
      .min(1, 'description is empty: name the task in a few words')
      .describe('The task in 3-6 words (shown to the user)'),
    prompt: z
      .string({ error: 'prompt is missing: say what the child should do' })
      .min(1, 'prompt is empty: say what the child should do')
      .describe('The whole task; the child sees nothing else of this conversation unless fork'),
    type: z.string().optional().describe(typeDescription(types)),
    fork: z.boolean().optional().describe('Start from a copy of this conversation'),
    background: z
      .boolean()
      .optional()
      .describe('Return its id at once; it runs on and you are told when it ends'),
    resume: z.string().optional().describe('Id of an earlier child to continue with this prompt'),
    isolation: z.literal('worktree').optional().describe('Work in a git worktree of its own'),
    model: z.string().optional().describe('Another model (provider/model)'),
  });
}

/** Whether every child of the call is of a type that changes nothing. */
export function onlyReadOnly(
  types: readonly AgentTypeSummary[],
  requests: readonly SubagentRequest[],
): boolean {
  return requests.every((r) => types.find((t) => t.name === (r.type ?? 'general'))?.readOnly === true);
}

/** What is wrong with the requests before anything starts, or undefined. */
export function requestProblem(requests: readonly SubagentRequest[], ctx: ToolContext): string | undefined {
  const agents = ctx.agents;
  if (!agents)
    return 'Subagents are not available here: no agent is running this call, or it is at the depth limit.';
  const types = agents.types();
  for (const request of requests) {
    if (request.type === undefined || types.some((t) => t.name === request.type)) continue;
    const names = types.map((t) => t.name).join(', ');
    return `Unknown agent type "${request.type}". Valid types: ${names}.`;
  }
  return undefined;
}

const count = (n: number) => n.toLocaleString('en-US');

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** One child's report as the model reads it: who, how it ended, what it spent, where its log is, its text. */
export function reportText(report: SubagentReport): string {
  const who = `${report.id} (${report.type}: ${report.name})`;
  if (report.status === 'running') {
    const read = ` Read its progress with task_output ${report.id}; stop it with task_stop.`;
    return `${who} runs in the background; you will be told when it ends.${read}\nsession log: ${report.logPath}`;
  }
  const u = report.usage;
  const cost = u.costUsd === undefined ? '' : `, $${u.costUsd.toFixed(4)}`;
  const spent = `${u.toolCalls} tool calls, ${count(u.inputTokens)} input + ${count(u.outputTokens)} output tokens, ${seconds(u.ms)}${cost}`;
  const worktree = report.worktree
    ? `\nworktree: ${report.worktree.dir} (branch ${report.worktree.branch})${report.worktree.diffstat ? `\n${report.worktree.diffstat}` : ''}`
    : '';
  return `${who} ${report.status.replace('_', ' ')}: ${spent}\nsession log: ${report.logPath}${worktree}\n\n${report.text || '(no text)'}`;
}

/** Runs the children and turns their reports into the tool's output; a bad request starts nothing. */
export async function runChildren(requests: SubagentRequest[], ctx: ToolContext): Promise<ToolOutput> {
  const problem = requestProblem(requests, ctx);
  if (problem) return { isError: true, text: problem };
  let reports: SubagentReport[];
  try {
    reports = await ctx.agents!.run(requests, ctx.signal);
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  }
  const texts = reports.map((r) => reportText(r));
  const text = texts.length === 1 ? texts[0] : texts.map((t, i) => `## ${i + 1}. ${t}`).join('\n\n');
  return { isError: reports.every((r) => r.status === 'failed'), text, data: { agents: reports } };
}
