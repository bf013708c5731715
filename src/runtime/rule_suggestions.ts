import { dirname, relative, resolve } from 'node:path';
import { SUBCOMMAND_PROGRAMS } from '../permission/rule_breadth.js';
import { classifyShellCommand, writtenTargets } from '../permission/shell/index.js';
import type { ApprovalRequest } from '../tool/run_call.js';
import type { ToolContext } from '../tool/types.js';
import { builtinTools } from '../tools/index.js';
import { leavesFolder } from '../util/inside_folder.js';

export interface RuleSuggestion {
  /** Rules "don't ask again" adds (`execute_command(npm test*)`); empty when no rule can stop the asking. */
  rules: string[];
  /** For shell commands: the parsed subcommands, as the rules see them. */
  subcommands: string[];
}

/**
 * The allow rules that would let this call (and calls like it) run without asking: for a shell
 * command, one prefix rule per parsed subcommand (`git commit`); for file tools, the folder of
 * each path; for others, the subjects (hosts, MCP tools) or the whole tool.
 */
export async function suggestRules(
  request: ApprovalRequest,
  cwd: string,
  workspace: string,
): Promise<RuleSuggestion> {
  const name = request.tool.name;
  if (request.tool.kind === 'execute')
    return shellRules(name, (request.input as { command?: string }).command ?? '');
  let subject: ReturnType<ApprovalRequest['tool']['permissionSubject']>;
  try {
    // The subject of the built-in tools depends on the input only; the context gives the folders.
    subject = request.tool.permissionSubject(request.input, { cwd, workspace } as ToolContext, request.facts);
  } catch {
    return { rules: [name], subcommands: [] };
  }
  if (subject.paths && subject.paths.length > 0) {
    // People think of edits, not of tool names: one "edits in this folder" covers every tool that changes files.
    const editing = fileChangingTools();
    const tools = editing.includes(name) ? editing : [name];
    const patterns = [...new Set(subject.paths.map((p) => folderPattern(p, cwd, workspace)))];
    return {
      rules: tools.flatMap((tool) => patterns.map((pattern) => `${tool}(${pattern})`)),
      subcommands: [],
    };
  }
  if (subject.subjects && subject.subjects.length > 0) {
    return { rules: [...new Set(subject.subjects.map((s) => `${name}(${s})`))], subcommands: [] };
  }
  return { rules: [name], subcommands: [] };
}

/** `src/app/x.ts` → `src/app/**`; a file at the root is named itself; outside, the absolute folder. */
function folderPattern(path: string, cwd: string, workspace: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(workspace, absolute);
  if (leavesFolder(rel)) return `${dirname(absolute)}/**`;
  const folder = dirname(rel);
  return folder === '.' ? rel : `${folder}/**`;
}

async function shellRules(tool: string, command: string): Promise<RuleSuggestion> {
  const classified = await classifyShellCommand(command);
  const subs = classified.subcommands;
  if (subs.length === 0) return { rules: [], subcommands: [] };
  const rules: string[] = [];
  for (const sub of subs) {
    if (sub.dynamic || sub.argv.length === 0) return { rules: [], subcommands: subs.map((s) => s.text) };
    // A command that writes through a redirection is covered only by a rule naming its target.
    if (writtenTargets(sub).length > 0) rules.push(`${tool}(${sub.text.trim()})`);
    // A plain pattern covers the command and anything after it: `npm test` covers `npm test -- -u`.
    else rules.push(`${tool}(${prefixOf(sub.argv)})`);
  }
  return { rules: [...new Set(rules)], subcommands: subs.map((s) => s.text.trim()) };
}

/** The command and, for tools with subcommands (rules keep it), its subcommand word: `npm test`, `git commit`, `ls`. */
function prefixOf(argv: string[]): string {
  const [command, second] = argv;
  if (second && SUBCOMMAND_PROGRAMS.has(command) && /^[a-z][\w:-]*$/i.test(second))
    return `${command} ${second}`;
  return command;
}

/** The tools that change files (they say which): one "edits in this folder" rule covers them all. */
function fileChangingTools(): string[] {
  return builtinTools()
    .filter((tool) => tool.touchedPaths !== undefined)
    .map((tool) => tool.name);
}
