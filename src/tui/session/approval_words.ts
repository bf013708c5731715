import type { ApprovalRequest } from '../../tool/run_call.js';
import { callLabelOf, declaredTool } from '../render/tool_facts.js';
import './tool_catalogue.js';
import { shownPath } from '../render/tool_line.js';
import type { ApprovalChoice } from '../state/prompts.js';

type Asked = Pick<ApprovalRequest, 'tool' | 'input' | 'reason' | 'category'>;

const OUTSIDE = new Set(['readOutside', 'editOutside']);

/**
 * The question an approval asks, in the words of what the call does, derived from the call:
 * `Edit src/app.ts?`, ``Run `npm test`?``, `Read /etc/hosts (outside the workspace)?`.
 */
export function approvalQuestion(request: Asked, cwd: string): string {
  const name = request.tool.name;
  const tool = declaredTool(name);
  const described = callLabelOf(name, request.input, (path) => shownPath(path, cwd));
  const outside = request.category && OUTSIDE.has(request.category) ? ' (outside the workspace)' : '';
  const verb = tool?.askVerb ?? described.verb;
  if (tool?.kind === 'execute') return `${verb} \`${described.detail}\`${outside}?`;
  // A call that says nothing of itself but its arguments (MCP tools and the like): they are shown above.
  if (!tool || (!described.declared && !hasPath(request.input))) return `Use ${name}${outside}?`;
  return `${verb} ${described.detail}${outside}?`;
}

/**
 * What the screen says of a call declined at its approval (No, or Esc), in the words of its
 * question: ``Declined: run `npm test` ``; undefined when it was allowed.
 */
export function declinedLine(question: string, choice: ApprovalChoice): string | undefined {
  if (choice.kind !== 'no' && choice.kind !== 'interrupt') return undefined;
  const what = question.replace(/\?$/, '');
  const said = choice.kind === 'no' && choice.feedback ? ` — ${choice.feedback}` : '';
  return `Declined: ${what.charAt(0).toLowerCase()}${what.slice(1)}${said}`;
}

const hasPath = (input: unknown) =>
  input !== null && typeof input === 'object' && typeof (input as { path?: unknown }).path === 'string';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * Why it asks, in a line, when there is more to it than the ordinary case: Plan mode, a protected
 * path, a rule that asks, what makes a command more than a read. Undefined for a plain ask, whose
 * question says it all.
 */
export function approvalNote(request: Asked, cwd: string): string | undefined {
  const reason = request.reason;
  const ordinary = /^\S+ needs approval \(category \w+\)(?:: ([\s\S]*))?$/.exec(reason);
  if (ordinary) return ordinary[1] ? `${capitalize(relativeIn(ordinary[1], cwd))}.` : undefined;
  const guarded = /^(\S+) is ([\s\S]*) \(protected: always asks\)$/.exec(reason);
  if (guarded) return `${shownPath(guarded[1], cwd)} is ${guarded[2]}: protected paths always ask.`;
  const plan =
    /^\S+(?: is not read-only \(([\s\S]*)\) and| changes the workspace and) lathe is in Plan mode$/.exec(
      reason,
    );
  if (plan)
    return plan[1]
      ? `Not read-only (${plan[1]}), and lathe is in Plan mode.`
      : 'lathe is in Plan mode: changes ask first.';
  const rule = /^rule ([\s\S]*) asks \(([\s\S]*)\)$/.exec(reason);
  if (rule) return `A rule asks first: ${rule[1]} (from ${rule[2]}).`;
  return capitalize(reason);
}

/** Absolute paths inside the working folder, as the rest of the UI shows them. */
function relativeIn(text: string, cwd: string): string {
  return text.replace(
    /(^|[\s(])(\/[^\s:;,)]+)/g,
    (_, before: string, path: string) => before + shownPath(path, cwd),
  );
}
