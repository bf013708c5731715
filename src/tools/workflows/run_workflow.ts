import { relative, sep } from 'node:path';
import { z } from 'zod';
import { shellQuote } from '../../config/commands/arguments.js';
import type { WorkflowScript } from '../../config/commands/types.js';
import { buildTool, SHELL_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { Tool } from '../../tool/types.js';
import { executeCommand } from '../exec/execute_command.js';
import { commandCallFacts, commandSubject } from '../exec/shell_facts.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .min(1)
      .describe('The workflow script, by name (e.g. "release" for .agents/workflows/release.mjs)'),
    args: z.array(z.string()).optional().describe('Arguments for the script, each passed as one word'),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(600)
      .optional()
      .describe('Seconds before it is stopped (default 120)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

/**
 * The command line that runs a script: `node <file>.mjs` or the executable itself, its path
 * relative to the workspace where it lies inside, each argument one shell-quoted word. It is
 * what the permission rules, the sandbox and the approval see.
 */
export function workflowCommandLine(
  script: WorkflowScript,
  args: readonly string[],
  workspace: string,
): string {
  const inside = script.path.startsWith(workspace + sep);
  const path = inside ? relative(workspace, script.path) : script.path;
  const program =
    script.runner === 'node' ? `node ${shellQuote(path)}` : shellQuote(inside ? `./${path}` : path);
  return [program, ...args.map(shellQuote)].join(' ');
}

/**
 * run_workflow for the scripts a session found (`.agents/workflows/<name>.mjs` or an executable
 * there or in `$LATHE_HOME/workflows/`): the script runs as execute_command would run its
 * command line — the same permission check, sandbox, timeout and output budget.
 */
export function runWorkflowTool(scripts: readonly WorkflowScript[], workspace: string): Tool<Input> {
  const find = (name: string) => scripts.find((script) => script.name === name);
  const commandOf = (input: Input) => {
    const script = find(input.name);
    return script ? workflowCommandLine(script, input.args ?? [], workspace) : undefined;
  };
  const listed = scripts.length > 0 ? scripts.map((script) => script.name).join(', ') : 'none yet';
  return buildTool({
    name: 'run_workflow',
    inputSchema,
    description:
      'Run a workflow script of this project or user (.agents/workflows/<name>.mjs with node, or an executable ' +
      `file there) and get its output and exit code. It runs as a shell command would: asked for, sandboxed, timed. Scripts: ${listed}.`,
    liteDescription: 'Run a workflow script by name.',
    availability: { profiles: ['standard'], feature: 'workflow_scripts' },
    kind: 'execute',
    resultView: 'tail',
    maxResultChars: SHELL_RESULT_CHARS,
    // lathe's own fact: a script may delete or overwrite anything it can reach.
    destroysExisting: true,
    parseFacts: (input) => commandCallFacts(commandOf(input)),
    permissionSubject: (input, _ctx, facts) => {
      const command = commandOf(input);
      return command ? { ...commandSubject(facts, command), readOnlyCommand: false } : { kind: 'none' };
    },
    validateInput(input) {
      if (find(input.name)) return undefined;
      return `No workflow script "${input.name}". Scripts: ${listed}.`;
    },
    userFacingName: () => 'Run workflow',
    detail: (input) => [input.name, ...(input.args ?? [])].join(' '),
    async call(input, ctx) {
      const command = commandOf(input) as string;
      // execute_command's own call: sandbox wrap, process group, timeout, output cap and file.
      // It runs where the script's relative path holds: the workspace it was found in.
      return executeCommand.call({ command, timeout: input.timeout }, { ...ctx, cwd: workspace });
    },
  });
}
