import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { isInside, realPathOf } from '../../permission/paths.js';
import { buildTool, SHELL_RESULT_CHARS } from '../../tool/build_tool.js';
import type { BackgroundCommand } from '../../tool/context/background_commands.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { CallFacts, ToolContext, ToolOutput } from '../../tool/types.js';
import { absolutePath, displayPath, pathKind } from '../shared/paths.js';
import { describeSize } from './output_capture.js';
import { type ProcessOutcome, type RunningProcess, startProcess } from './run_process.js';
import { commandCallFacts, commandSubject, isReadOnlyCommand } from './shell_facts.js';
import { startInTerminal } from './terminal_process.js';

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;
/** Bytes of the head and of the tail of the output kept for the model. */
const KEEP_BYTES = 12_000;

const inputSchema = lazySchema(() =>
  z.strictObject({
    command: z.string().min(1).describe('The shell command (bash)'),
    requires_approval: z
      .boolean()
      .optional()
      .describe(
        'true for commands that change things (install, delete, push, deploy); lathe also decides itself',
      ),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_S)
      .optional()
      .describe(
        `Seconds before the command is stopped (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`,
      ),
    run_in_background: z
      .boolean()
      .optional()
      .describe('Start it and return an id at once (servers, watchers)'),
    cwd: z
      .string()
      .optional()
      .describe('Folder to run in, inside the workspace (default: the working folder)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

const isReadOnly = (input: Input, facts: CallFacts) =>
  input.requires_approval !== true && isReadOnlyCommand(facts, input.command);

function shellArgv(command: string): string[] {
  return process.platform === 'win32'
    ? ['powershell.exe', '-NoProfile', '-NonInteractive', '-Command', command]
    : ['bash', '-c', command];
}

function describeEnd(outcome: ProcessOutcome, timeoutS: number): string {
  if (outcome.outputCut)
    return `Output cut at ${describeSize(outcome.output.limit)} (settings commands.maxOutputBytes); the command was stopped.`;
  if (outcome.timedOut) return `Stopped after ${timeoutS} s (timeout); the whole process tree was ended.`;
  if (outcome.aborted) return 'Interrupted; the whole process tree was ended.';
  if (outcome.signal) return `Ended by signal ${outcome.signal}.`;
  if (outcome.exitCode === null) return 'Ended without an exit code.';
  return `Exit code ${outcome.exitCode}.`;
}

function cutNote(command: BackgroundCommand): string {
  if (command.outputCutAt === undefined) return '';
  return `; output cut at ${describeSize(command.outputCutAt)} (settings commands.maxOutputBytes), so it was stopped`;
}

/** Where the output was saved when the result shows only its head and tail (or it was cut). */
function savedOutput(
  output: ProcessOutcome['output'],
  truncated: boolean,
): { note: string; savedPath?: string } {
  if (output.saveError)
    return { note: ` Saving the output failed (${output.saveError}); ${output.path} holds only part of it.` };
  if (!truncated && !output.cut) return { note: '' };
  return { note: ` ${output.cut ? 'Saved' : 'Full'} output: ${output.path}`, savedPath: output.path };
}

function outputPathFor(ctx: ToolContext, id: string): string {
  return join(ctx.sessionDir, 'commands', `${id}.log`);
}

/**
 * The entry of a command in `backgroundCommands`: every command is listed while it runs, so a
 * foreground one can be sent to the background (`detaching` settles then). `undone` says what
 * the sandbox undid afterwards (a protected path the command created), once it has ended.
 */
function listedCommand(
  id: string,
  input: { command: string; run_in_background?: boolean },
  outputPath: string,
  running: RunningProcess,
  cleanup: () => string | undefined,
): { entry: BackgroundCommand; detaching: Promise<'detached'>; undone: () => string | undefined } {
  let detached!: () => void;
  const detaching = new Promise<'detached'>((resolve) => {
    detached = () => resolve('detached');
  });
  // What the sandbox undid afterwards (a protected path the command created), for the result.
  let undone: string | undefined;
  const entry: BackgroundCommand = {
    id,
    command: input.command,
    outputPath,
    startedAt: Date.now(),
    finished: false,
    kill: running.kill,
    foreground: !input.run_in_background,
    detach() {
      if (!entry.foreground) return;
      entry.foreground = false;
      running.release();
      detached();
    },
    done: running.done.then((outcome) => {
      undone = cleanup();
      entry.finished = true;
      entry.exitCode = outcome.exitCode;
      entry.signal = outcome.signal;
      if (outcome.outputCut) entry.outputCutAt = outcome.output.limit;
    }),
  };
  return { entry, detaching, undone: () => undone };
}

/** A foreground command's result once it ended: its output (head and tail), how it ended, where all of it is. */
function finishedResult(outcome: ProcessOutcome, timeoutS: number, undone: string | undefined): ToolOutput {
  const { text, truncated } = outcome.output.preview();
  const end = describeEnd(outcome, timeoutS);
  const body = text.trim() === '' ? '(no output)' : text.replace(/\s+$/, '');
  const { note, savedPath } = savedOutput(outcome.output, truncated);
  return {
    text: `${body}\n\n${end}${note}${undone ? `\n${undone}` : ''}`,
    isError: outcome.exitCode !== 0,
    ...(savedPath ? { savedPath } : {}),
    data: {
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      timedOut: outcome.timedOut,
      outputCut: outcome.outputCut,
      bytes: outcome.output.total,
    },
  };
}

export const executeCommand = buildTool({
  name: 'execute_command',
  inputSchema,
  description:
    'Run a shell command in the workspace (bash; PowerShell on Windows) and get its output and exit code. ' +
    'No interactive input: pass flags like --yes. Long output is cut to its head and tail, with the full output ' +
    'saved to a file. Use run_in_background for servers and watchers (you get an id; stop it with kill_command). ' +
    'Prefer read_file, search_files and glob for reading and searching.',
  liteDescription: 'Run a shell command; get output and exit code.',
  availability: { profiles: ['standard', 'lite', 'simple'] },
  kind: 'execute',
  resultView: 'tail',
  dynamic: { readOnly: true, concurrencySafe: true },
  // lathe's own fact: a command that is not read-only may delete or overwrite anything it can reach.
  destroysExisting: (input, facts) => !isReadOnly(input, facts),
  maxResultChars: SHELL_RESULT_CHARS,
  cancelsSiblingsOnError: true,
  parseFacts: (input) => commandCallFacts(input.command),
  isReadOnly,
  isConcurrencySafe: (input, facts) => isReadOnly(input, facts) && !input.run_in_background,
  permissionSubject: (input, _ctx, facts) => ({
    ...commandSubject(facts, input.command, input.cwd),
    readOnlyCommand: isReadOnly(input, facts),
  }),
  async validateInput(input, ctx) {
    if (input.cwd === undefined) return undefined;
    const folder = absolutePath(ctx, input.cwd);
    if (!isInside(realPathOf(folder), ctx.workspace))
      return `cwd ${input.cwd} is outside the workspace; commands run inside it.`;
    if ((await pathKind(folder)).kind !== 'directory') return `cwd ${input.cwd} is not a folder.`;
    return undefined;
  },
  userFacingName: () => 'Run',
  detail: (input, show) => {
    const lines = input.command.split('\n');
    const command = lines.length > 1 ? `${lines[0]} …` : lines[0];
    const where = input.cwd && show(input.cwd) !== '.' ? ` (in ${show(input.cwd)})` : '';
    return command + where + (input.run_in_background ? ' (background)' : '');
  },
  async call(input, ctx) {
    const cwd = input.cwd ? absolutePath(ctx, input.cwd) : ctx.cwd;
    const timeoutS = input.timeout ?? DEFAULT_TIMEOUT_S;
    const id = `cmd_${randomBytes(4).toString('hex')}`;
    const outputPath = outputPathFor(ctx, id);
    const wrapped = await ctx.sandbox?.wrap(shellArgv(input.command), cwd, {
      agentMode: ctx.permissions.mode,
    });
    const run = {
      argv: wrapped?.argv ?? shellArgv(input.command),
      cwd,
      outputPath,
      keepBytes: KEEP_BYTES,
      maxOutputBytes: ctx.maxOutputBytes,
      timeoutMs: input.run_in_background ? undefined : timeoutS * 1000,
      signal: input.run_in_background ? undefined : ctx.signal,
    };
    // The program's terminal (an editor's), when it offers one, runs the same sandboxed command line.
    const terminal = ctx.editor?.terminal;
    const running = terminal
      ? startInTerminal(terminal, { ...run, command: input.command, toolUseId: ctx.callId })
      : startProcess(run);
    const { entry, detaching, undone } = listedCommand(id, input, outputPath, running, () =>
      wrapped?.cleanup(),
    );
    ctx.backgroundCommands.set(id, entry);
    const whenOutput = terminal ? " when it ends (it runs in the editor's terminal)" : '';
    const backgroundNote = `Output goes to ${displayPath(ctx, outputPath)}${whenOutput}; read it with read_file, stop it with kill_command.`;
    if (input.run_in_background) {
      return {
        text: `Started in the background as ${id}${running.pid === undefined ? '' : ` (pid ${running.pid})`}. ${backgroundNote}`,
        data: { id, pid: running.pid, outputPath },
      };
    }
    const first = await Promise.race([running.done, detaching]);
    if (first === 'detached') {
      return {
        text: `The user sent the command to the background as ${id}; it is still running. ${backgroundNote}`,
        data: { id, outputPath },
      };
    }
    const outcome = first;
    await entry.done;
    entry.foreground = false;
    ctx.backgroundCommands.delete(id);
    return finishedResult(outcome, timeoutS, undone());
  },
});

export const killCommand = buildTool({
  name: 'kill_command',
  deferred: true,
  inputSchema: lazySchema(() =>
    z.strictObject({ id: z.string().min(1).describe('The id execute_command returned') }),
  ),
  description: 'Stop a command started with execute_command run_in_background, with its whole process tree.',
  availability: { profiles: ['standard', 'lite'] },
  kind: 'other',
  userFacingName: () => 'Stop',
  askVerb: 'Stop the command',
  detail: (input) => input.id,
  isDestructive: () => true,
  async call(input, ctx) {
    const command = ctx.backgroundCommands.get(input.id);
    if (!command) {
      const ids = [...ctx.backgroundCommands.keys()];
      return {
        isError: true,
        text: `No background command ${input.id}. Running: ${ids.length ? ids.join(', ') : 'none'}.`,
      };
    }
    if (command.finished) {
      return {
        text: `${input.id} had already ended (exit code ${command.exitCode ?? command.signal}${cutNote(command)}). Output: ${command.outputPath}`,
      };
    }
    command.kill();
    await command.done;
    return { text: `Stopped ${input.id} (${command.command}). Output: ${command.outputPath}` };
  },
});
