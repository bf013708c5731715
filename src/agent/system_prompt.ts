import type { AgentsFile } from '../config/agents_md.js';
import type { Rule } from '../config/rules/index.js';
import { skillListing } from '../config/skills/listing.js';
import type { Skill } from '../config/skills/types.js';
import type { Mode, Profile } from '../config/types.js';

export interface PromptInputs {
  profile: Profile;
  mode: Mode;
  environment: string;
  agentsFiles: AgentsFile[];
  /** The active rule files, in order (the user's, the workspace's, then other tools' files). */
  rules?: readonly Rule[];
  /** Tool descriptions for models without native tool calling (already formatted). */
  textTools?: string;
  jsonSchema?: Record<string, unknown>;
  /** Instructions that replace the profile's own (`--system-prompt`). */
  instructions?: string;
  /** Text that ends the prompt (`--append-system-prompt`). */
  appended?: string;
  /** Coordinator mode: the agent has only the tools to delegate (feature `coordinator`). */
  coordinator?: boolean;
  /** The skills the model may load: listed by name and description. */
  skills?: readonly Pick<Skill, 'name' | 'description'>[];
  /** Concise-output mode is on (the brief tool). */
  brief?: boolean;
}

const STANDARD = `You are lathe, a coding agent working in the user's repository through tools. You read, search, edit, run and verify code.

How to work:
- Understand before changing: search_files, glob, list_files, read_file. Calls of one message that only read run in parallel.
- Make small, exact edits (replace_in_file, edit_file; write_to_file for new files, apply_patch across files). Keep the code's style.
- Verify your work when you can (run the tests or the build), and fix what you broke.
- Before a tool call that changes things, you may say what it does in one short working_respond in the same message.
- When the task is done, call attempt_completion with the result. When the user only asked a question, answer with qna_respond. If you truly cannot go on without the user, ask_followup_question.
- A tool result that is an error tells you what went wrong and what to do next: read it and adjust. Never repeat the same failing call.
- Paths are relative to the working folder. Be concise: no filler, no restating the tools' output.`;

const PLAN_MODE = `You are in Plan mode: explore with read-only tools and design; tools that change things need the user's explicit approval each time. When the plan is ready, present it with make_plan (or exit_plan_mode).`;

const BRIEF = `Brief mode is on (the user or the brief tool switched it on): keep every reply short. Give the result, what changed and what comes next, in a few lines; no preamble, no restating tool output, no summary of steps the user saw. Longer only when the user asks for detail; brief {on: false} switches it off.`;

const COORDINATOR = `You are the coordinator: you do not read, edit or run anything yourself. Delegate every piece of work to subagents with use_subagent, giving each a complete, self-contained prompt (a child does not see this conversation). Split independent work across several children, check what each reports, send follow-ups with send_message, stop a child gone astray with task_stop, and give the user the combined result.`;

const LITE = `You are lathe, a coding agent. Use the tools to read, search, edit and run code in the user's repository.
- Look before you change: search_files, list_files, read_file.
- Edit with replace_in_file (exact lines from the file) or write_to_file.
- When done, call attempt_completion with the result. To answer a question, use qna_respond.
- If a tool returns an error, read it and try another way.`;

const SIMPLE = `You are lathe, a coding agent. Tools: execute_command runs shell commands, read_file reads a file, edit_file replaces an exact string in a file (read it first). When the task is done, reply with a short summary and no tool call.`;

/** The system prompt for a profile: instructions, environment, AGENTS.md (nearest first), rules. */
export function systemPrompt(inputs: PromptInputs): string {
  const base = inputs.profile === 'lite' ? LITE : inputs.profile === 'simple' ? SIMPLE : STANDARD;
  const parts = [inputs.instructions ?? base];
  if (inputs.coordinator) parts.push(COORDINATOR);
  if (inputs.mode === 'plan') parts.push(PLAN_MODE);
  if (inputs.brief) parts.push(BRIEF);
  parts.push(`Environment (as it was when the conversation started):\n${inputs.environment}`);
  for (const file of inputs.agentsFiles) parts.push(agentsFileSection(file));
  for (const rule of inputs.rules ?? []) if (rule.text) parts.push(ruleSection(rule));
  const skills = skillListing(inputs.skills ?? []);
  if (skills) parts.push(skills);
  if (inputs.jsonSchema) {
    parts.push(
      `The final answer must be given with the structured_output tool, as JSON matching this schema:\n${JSON.stringify(inputs.jsonSchema)}`,
    );
  }
  if (inputs.textTools) parts.push(inputs.textTools);
  if (inputs.appended) parts.push(inputs.appended);
  return parts.join('\n\n');
}

/** An AGENTS.md file as the prompt carries it. */
export function agentsFileSection(file: AgentsFile): string {
  return `Project instructions from ${file.path} (follow them; nearer files win):\n${file.text.trim()}`;
}

/** A rule file as the prompt carries it. */
export function ruleSection(rule: Rule): string {
  const scope = rule.paths ? ` (for files matching ${rule.paths.join(', ')})` : '';
  return `Rule from ${rule.name}${scope} (follow it):\n${rule.text}`;
}
