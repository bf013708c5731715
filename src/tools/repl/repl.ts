import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

/** The longest a run may be given, whatever settings say of the default. */
const MAX_TIMEOUT_SECONDS = 600;

const inputSchema = lazySchema(() =>
  z.strictObject({
    code: z.string().min(1).describe('JavaScript to run; its last expression is the result'),
    language: z.enum(['js']).optional().describe('The language of the code: js (the only one)'),
    timeout: z
      .number()
      .positive()
      .max(MAX_TIMEOUT_SECONDS)
      .optional()
      .describe('Seconds the run may take (default: settings repl.timeout, 30)'),
  }),
);

export const repl = buildTool({
  name: 'repl',
  inputSchema,
  description:
    'Run JavaScript in an isolated context kept for the whole session: variables and functions defined in one ' +
    'call are there in the next. The last expression is the result; console.log output is shown too. Helpers ' +
    "reach the workspace through lathe's own tools, with the same permission checks as your own calls, and " +
    "return promises of the tool's text: read(path, {offset, limit}) → read_file, write(path, content) → " +
    'write_to_file, edit(path, oldString, newString, {replaceAll}) → edit_file, sh(command, {timeout}) → ' +
    'execute_command; a refused or failed call rejects with its message. Use top-level await with them; code ' +
    'that awaits runs as an async function body, so `return` its result and keep values on globalThis. There is ' +
    'no require, process or network. A run is stopped past its timeout; one out of memory, or still waiting ' +
    'past its timeout, restarts the REPL (its state is lost).',
  availability: { profiles: ['standard'], feature: 'internal' },
  // Not `execute`: it runs no shell command (its sh helper's calls are execute_command's own).
  kind: 'other',
  userFacingName: () => 'REPL',
  detail: (input) => {
    const first = input.code.trim().split('\n')[0];
    return first.length > 80 ? `${first.slice(0, 79)}…` : first;
  },
  resultView: 'tail',
  async call(input, ctx) {
    if (!ctx.repl || !ctx.callTool)
      return { isError: true, text: 'The REPL is not available in this session.' };
    const settingsTimeout = ctx.sessionSettings?.get('repl.timeout')?.value;
    const seconds = input.timeout ?? (typeof settingsTimeout === 'number' ? settingsTimeout : 30);
    const run = await ctx.repl.run(input.code, {
      timeoutMs: Math.round(seconds * 1000),
      signal: ctx.signal,
      callTool: ctx.callTool,
    });
    const parts = [
      run.output,
      run.error ?? (run.value !== undefined ? run.value : run.output ? '' : 'undefined'),
      run.reset ? 'The REPL was restarted: its state (variables, functions) is gone.' : '',
    ].filter((part) => part !== '');
    return {
      isError: run.error !== undefined,
      text: parts.join('\n'),
      data: { ...run },
    };
  },
});
