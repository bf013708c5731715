import { appendFile } from 'node:fs/promises';
import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { BackgroundTask } from '../../tool/context/tasks.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';
import { newTaskId, taskData, taskOutputPath, taskTable } from '../tasks/task_table.js';
import { type TaskWorkspace, worktreeForTask } from './task_isolation.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    prompt: z
      .string()
      .min(1)
      .describe(
        'The whole task, as you would give it to a new agent that knows nothing of this conversation',
      ),
    description: z.string().optional().describe('A few words for the task list'),
    isolation: z.enum(['worktree']).optional().describe('Run it in a git worktree of its own'),
  }),
);

const firstLine = (text: string) => {
  const line = text.trim().split('\n')[0];
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

export const spawnTask = buildTool({
  name: 'spawn_task',
  inputSchema,
  description:
    'Start an independent task: a separate lathe run in its own session, on the same model, working on its own ' +
    'from the prompt alone (it does not see this conversation). The user approves each one. It returns a task id ' +
    "at once; read the task's output with task_output, stop it with task_stop. Use it for work that can go on " +
    'beside yours; for help with your own task, prefer a subagent.',
  availability: { profiles: ['standard'], notFor: ['subagent', 'task'] },
  kind: 'agent',
  userFacingName: () => 'Spawn task',
  detail: (input) => input.description ?? firstLine(input.prompt),
  permissionSubject: () => ({ kind: 'subagents' }),
  // Always asks: a task runs on its own, beyond this conversation. Only the run's own flags
  // (--yolo, --approve subagents) or a person's yes let it start.
  checkPermissions: (_input, ctx) =>
    ctx.spawner?.preApproved
      ? { behavior: 'allow' }
      : {
          behavior: 'ask',
          reason: 'spawn_task starts an independent lathe run in its own session',
          category: 'subagents',
          hint: 'rerun with --approve subagents or --yolo',
        },
  validateInput: (input) => (input.prompt.trim() ? undefined : 'The prompt is empty: say what the task is.'),
  async call(input, ctx) {
    const table = taskTable(ctx);
    if ('error' in table) return table.error;
    if (!ctx.spawner)
      return { isError: true, text: 'Tasks cannot be spawned here: this run cannot start lathe runs.' };
    const id = newTaskId();
    let workspace: TaskWorkspace | undefined;
    try {
      if (input.isolation === 'worktree') workspace = await worktreeForTask(ctx, id);
    } catch (error) {
      return { isError: true, text: (error as Error).message };
    }
    const outputPath = taskOutputPath(ctx, id);
    let run: ReturnType<typeof ctx.spawner.start>;
    try {
      run = ctx.spawner.start({
        prompt: input.prompt,
        cwd: workspace?.dir ?? ctx.cwd,
        model: ctx.interaction?.modelName,
        outputPath,
      });
    } catch (error) {
      await workspace?.finish().catch(() => undefined);
      return { isError: true, text: `The task was not started: ${(error as Error).message}` };
    }
    const task: BackgroundTask = {
      id,
      subject: input.description ?? firstLine(input.prompt),
      description: input.prompt,
      command: `lathe task, session ${run.sessionId}`,
      status: 'running',
      createdAt: Date.now(),
      outputPath,
      readOffset: 0,
      kill: run.kill,
    };
    task.done = run.done.then(async (outcome) => {
      task.exitCode = outcome.exitCode;
      task.signal = outcome.signal;
      task.endedAt = Date.now();
      // A task already marked stopped (task_stop, shutdown) keeps that status.
      if (task.status === 'running') task.status = outcome.exitCode === 0 ? 'completed' : 'failed';
      const note = await workspace?.finish().catch((error: Error) => `worktree: ${error.message}`);
      if (note) await appendFile(outputPath, `# ${note}\n`).catch(() => undefined);
    });
    table.tasks.set(id, task);
    const reading = 'read its output with task_output (wait: N waits for it to end), stop it with task_stop';
    return {
      text:
        `Started ${id}: ${task.subject} (pid ${run.pid}, session ${run.sessionId}). Its output goes to ` +
        `${displayPath(ctx, outputPath)}; ${reading}. It ends when this lathe ends; its session can be resumed ` +
        `later with lathe --resume ${run.sessionId}.`,
      data: { ...taskData(task), sessionId: run.sessionId, pid: run.pid },
    };
  },
});
