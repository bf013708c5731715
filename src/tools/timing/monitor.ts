import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { TimedRegex } from '../../edit/timed_regex.js';
import { buildTool, SHELL_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext } from '../../tool/types.js';
import type { RunningProcess } from '../exec/run_process.js';
import { absolutePath, displayPath } from '../shared/paths.js';
import { fileSize } from '../tasks/output_file.js';
import {
  commandCallFacts,
  commandSubject,
  isReadOnlyCommand,
  startShellCommand,
} from '../tasks/shell_run.js';
import { LineFollower, RecentLines } from './line_follower.js';
import { interruptibleDelay } from './sleep.js';

const DEFAULT_TIMEOUT_S = 300;
const MAX_TIMEOUT_S = 3_600;
const POLL_MS = 150;
const KEEP_LINES = 200;
const KEEP_LINE_CHARS = 500;

const inputSchema = lazySchema(() =>
  z.strictObject({
    command: z.string().min(1).optional().describe('A shell command whose output to follow'),
    path: z.string().min(1).optional().describe('A file (a log) whose new lines to follow'),
    until: z.string().min(1).optional().describe('Stop when a line matches this regular expression'),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_S)
      .optional()
      .describe(`Seconds before monitoring stops (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S})`),
    from_start: z.boolean().optional().describe('With path: read the lines already in the file too'),
  }),
);
type Input = z.infer<typeof inputSchema>;

type Ending = 'matched' | 'exited' | 'timeout' | 'interrupted';

function describeEnding(
  ending: Ending,
  input: Input,
  running: RunningProcess | undefined,
  exit: string,
): string {
  const stopped = running && ending !== 'exited' ? ' The command was stopped.' : '';
  if (ending === 'matched') return `A line matched /${input.until}/.${stopped}`;
  if (ending === 'exited') return `The command ended (${exit}).`;
  if (ending === 'timeout')
    return `Stopped after ${input.timeout ?? DEFAULT_TIMEOUT_S} s (timeout)${input.until ? ' with no match' : ''}.${stopped}`;
  return `Interrupted.${stopped}`;
}

/** Follows the source until it ends, a line matches, the timeout, or an interrupt. */
async function follow(
  ctx: ToolContext,
  input: Input,
  follower: LineFollower,
  running: RunningProcess | undefined,
): Promise<Ending> {
  const deadline = Date.now() + (input.timeout ?? DEFAULT_TIMEOUT_S) * 1000;
  let exited = false;
  void running?.done.then(() => {
    exited = true;
  });
  for (;;) {
    // Read the flag before polling, so the last poll after the exit sees all of the output.
    const writerDone = exited;
    if (await follower.poll(writerDone)) return 'matched';
    if (writerDone) return 'exited';
    if (ctx.signal.aborted) return 'interrupted';
    const left = deadline - Date.now();
    if (left <= 0) return 'timeout';
    const pause = interruptibleDelay(Math.min(POLL_MS, left), ctx.signal);
    // A command's end wakes the loop at once, for its last lines.
    await (running ? Promise.race([pause, running.done]) : pause);
  }
}

export const monitor = buildTool({
  name: 'monitor',
  inputSchema,
  description:
    "Follow a command's output, or the new lines of a log file, as they come: each line is shown to the user " +
    'live. Stops when the command ends, when a line matches `until` (a regex: "Server listening|ERROR"), or at ' +
    'the timeout; returns the last lines seen. Use it to wait for a server to start or a job to finish.',
  availability: { profiles: ['standard'], feature: 'monitor' },
  kind: 'read',
  example: {
    files: { 'build.log': 'done\n' },
    input: { path: 'build.log', until: 'done', from_start: true },
  },
  userFacingName: () => 'Monitor',
  maxResultChars: SHELL_RESULT_CHARS,
  parseFacts: (input) => commandCallFacts(input.command),
  // lathe's own fact: watching a log, or a command that only reads, leaves the workspace alone.
  planModeAllowed: (input, facts) => input.command === undefined || isReadOnlyCommand(facts, input.command),
  permissionSubject: (input, _ctx, facts) =>
    input.command !== undefined
      ? commandSubject(facts, input.command)
      : { kind: 'read', paths: [input.path ?? '.'] },
  validateInput(input) {
    if ((input.command === undefined) === (input.path === undefined))
      return 'Give either command (a shell command to run and follow) or path (a file to follow), not both.';
    if (input.from_start && input.path === undefined) return 'from_start applies to path only.';
    const problem = input.until === undefined ? undefined : TimedRegex.problem(input.until, '');
    return problem === undefined ? undefined : `until is not a valid regular expression: ${problem}`;
  },
  async call(input, ctx) {
    // The model's pattern runs in a worker with a time limit: a catastrophic one cannot hang lathe.
    const pattern = input.until !== undefined ? new TimedRegex(input.until, '') : undefined;
    const seen = new RecentLines(KEEP_LINES, KEEP_LINE_CHARS);
    const matched: { line?: string; error?: string } = {};
    const onLine = async (line: string) => {
      seen.push(line);
      ctx.progress?.(line.slice(0, KEEP_LINE_CHARS));
      if (pattern === undefined) return false;
      const tested = await pattern.test([line]);
      if (!tested.ok) matched.error = `until: ${tested.error}.`;
      else if (!tested.matches[0]) return false;
      else matched.line = line;
      return true;
    };
    let running: RunningProcess | undefined;
    let followed: string;
    let follower: LineFollower;
    const started = performance.now();
    if (input.command !== undefined) {
      followed = join(ctx.sessionDir, 'monitor', `mon_${randomBytes(4).toString('hex')}.log`);
      running = await startShellCommand(ctx, { command: input.command, outputPath: followed });
      follower = new LineFollower(followed, 0, onLine);
    } else {
      followed = absolutePath(ctx, input.path!);
      follower = new LineFollower(followed, input.from_start ? 0 : await fileSize(followed), onLine);
    }
    const ending = await follow(ctx, input, follower, running).finally(() => pattern?.close());
    let exit = '';
    if (running) {
      if (ending !== 'exited') running.kill();
      const outcome = await running.done;
      exit = outcome.signal ? `signal ${outcome.signal}` : `exit code ${outcome.exitCode}`;
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const source = input.command !== undefined ? `\`${input.command}\`` : displayPath(ctx, followed);
    if (matched.error !== undefined) {
      const stopped = running ? ' The command was stopped.' : '';
      return { isError: true, text: `Stopped monitoring ${source}: ${matched.error}${stopped}` };
    }
    const head = `Monitored ${source} for ${seconds} s: ${seen.total} line${seen.total === 1 ? '' : 's'}. ${describeEnding(ending, input, running, exit)}`;
    const match = matched.line !== undefined ? `\nMatching line: ${matched.line}` : '';
    const kept = seen.kept.length < seen.total ? `\nThe last ${seen.kept.length} lines:` : '';
    const lines = seen.kept.length ? `\n${seen.kept.join('\n')}` : '';
    const saved = running ? `\nWhole output: ${displayPath(ctx, followed)}` : '';
    return {
      text: `${head}${match}${kept}${lines}${saved}`,
      data: { ending, matched: matched.line, lines: seen.total, exit: exit || undefined },
    };
  },
});
