import type { AgentType } from '../../config/agent_types/index.js';

/**
 * A child's instructions in place of lathe's own: shorter (its first request stays small) and
 * about the one thing that differs, that its final answer is all its parent reads.
 */
const CHILD = `You are a subagent of lathe, a coding agent: another agent handed you one task and reads only your final answer. Work in the user's repository with the tools: search and read before changing, make small exact edits, verify when you can. Tool errors say what to do next; never repeat a failing call. No user is present: decide yourself. When done, reply without a tool call (or call attempt_completion): give the result itself, complete and concise, with the file paths and facts your parent needs.`;

/** The system prompt's instructions for a child of this type: lathe's child text, then the type's own. */
export function childInstructions(type: AgentType): string {
  const own = type.prompt?.trim();
  return own ? `${CHILD}\n\nYour instructions (agent type ${type.name}):\n${own}` : CHILD;
}
