import { z } from 'zod';
import { buildTool, SHELL_RESULT_CHARS } from '../../tool/build_tool.js';
import type { BackgroundTask } from '../../tool/context/tasks.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';
import { fileSize, readSlice } from './output_file.js';
import { endOf, lookupTask, TASK_CONTROL_AVAILABILITY } from './task_table.js';

/** Bytes of output one call returns; the rest waits for the next call (or read_file). */
const MAX_BYTES = 24_000;
const MAX_WAIT_S = 600;

const inputSchema = lazySchema(() =>
  z.strictObject({
    id: z.string().min(1).describe('The id task_create returned'),
    all: z
      .boolean()
      .optional()
      .describe('The whole output (head and tail when long) instead of what is new since the last read'),
    wait: z
      .number()
      .min(0)
      .max(MAX_WAIT_S)
      .optional()
      .describe(`Seconds to wait for the task to end first (at most ${MAX_WAIT_S})`),
  }),
);
type Input = z.infer<typeof inputSchema>;

/** Waits until the task ends, `seconds` pass, or the call is interrupted. */
async function waitForEnd(task: BackgroundTask, seconds: number, signal: AbortSignal): Promise<void> {
  if (task.status !== 'running' || !task.done) return;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  await Promise.race([
    task.done,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, seconds * 1000);
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    }),
  ]);
  clearTimeout(timer);
  if (onAbort) signal.removeEventListener('abort', onAbort);
}

async function wholeOutput(path: string, complete: boolean): Promise<{ text: string; note: string }> {
  const size = await fileSize(path);
  if (size <= MAX_BYTES) return { text: (await readSlice(path, 0, MAX_BYTES, complete)).text, note: '' };
  const head = await readSlice(path, 0, MAX_BYTES / 2);
  const tailStart = size - MAX_BYTES / 2;
  const tail = await readSlice(path, tailStart, MAX_BYTES / 2, complete);
  // The tail may start inside a character: drop its leading continuation bytes.
  const tailText = tail.text.replace(/^\uFFFD+/, '');
  const omitted = tailStart - head.bytes;
  return {
    text: `${head.text}\n[… ${omitted} bytes omitted …]\n${tailText}`,
    note: ` (whole output: ${path})`,
  };
}

export const taskOutput = buildTool({
  name: 'task_output',
  inputSchema,
  description:
    "Read a task's output: by default what is new since your last read, or all of it with all: true. " +
    'wait: N first waits up to N seconds for the task to end. Long output comes in parts; call again for the rest.',
  availability: TASK_CONTROL_AVAILABILITY,
  kind: 'read',
  // Touches only the output lathe keeps of its own tasks: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { id: 'task_1' } },
  userFacingName: () => 'Task output',
  maxResultChars: SHELL_RESULT_CHARS,
  // Read-only, and then concurrency-safe, when it only reads: `all` leaves the read position
  // where it is; other reads move it, and must not race.
  dynamic: { readOnly: true, concurrencySafe: true },
  isReadOnly: (input: Input) => input.all === true,
  isConcurrencySafe: (input: Input) => input.all === true,
  // lathe's own fact: the read position is lathe's own state, so Plan mode lets every read run.
  planModeAllowed: true,
  async call(input, ctx) {
    const found = lookupTask(ctx, input.id);
    if ('error' in found) return found.error;
    const { task } = found;
    if (!task.outputPath) return { isError: true, text: `${task.id} runs no command, so it has no output.` };
    if (input.wait) await waitForEnd(task, input.wait, ctx.signal);
    const complete = task.status !== 'running';
    const status = complete ? `${task.status}, ${endOf(task)}` : 'running';
    const shown = displayPath(ctx, task.outputPath);
    if (input.all) {
      const { text, note } = await wholeOutput(task.outputPath, complete);
      return {
        text: `${task.id} [${status}]${note}:\n${text || '(no output)'}`,
        data: { status: task.status },
      };
    }
    const slice = await readSlice(task.outputPath, task.readOffset, MAX_BYTES, complete);
    task.readOffset += slice.bytes;
    const unread = slice.size - task.readOffset;
    const more =
      unread > 0 ? `\n[${unread} more bytes unread: call task_output again, or read ${shown}]` : '';
    const body = slice.text === '' ? '(no new output)' : slice.text;
    return {
      text: `${task.id} [${status}], new output:\n${body}${more}`,
      data: { status: task.status, bytes: slice.bytes, unread },
    };
  },
});
