import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BackgroundTask } from '../../tool/context/tasks.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';
import { describeSize } from '../exec/output_capture.js';
import type { RunningProcess } from '../exec/run_process.js';

/** task_create, task_get, task_update, task_list: feature `tasks`. */
export const TASKS_AVAILABILITY = { profiles: ['standard'], feature: 'tasks' } as const;
/** task_output and task_stop read and stop every kind of task (spawned, background children) without it. */
export const TASK_CONTROL_AVAILABILITY = { profiles: ['standard'] } as const;

export function newTaskId(): string {
  return `task_${randomBytes(4).toString('hex')}`;
}

/** A task's output file, in the session's folder. */
export function taskOutputPath(ctx: ToolContext, id: string): string {
  return join(ctx.sessionDir, 'tasks', `${id}.log`);
}

/** The runtime's task table, or the error a tool returns without one. */
export function taskTable(ctx: ToolContext): { tasks: Map<string, BackgroundTask> } | { error: ToolOutput } {
  if (ctx.tasks) return { tasks: ctx.tasks };
  return { error: { isError: true, text: 'Tasks are not available here: this run keeps no task table.' } };
}

/** The task with this id, or an error naming the tasks there are. */
export function lookupTask(ctx: ToolContext, id: string): { task: BackgroundTask } | { error: ToolOutput } {
  const table = taskTable(ctx);
  if ('error' in table) return table;
  const task = table.tasks.get(id);
  if (task) return { task };
  const ids = [...table.tasks.keys()];
  return {
    error: {
      isError: true,
      text: `No task ${id}. Tasks: ${ids.length ? ids.join(', ') : 'none yet (task_create makes one)'}.`,
    },
  };
}

/** Follows a task's process: its status, exit code and end time once it ends. */
export function attachProcess(task: BackgroundTask, running: RunningProcess): void {
  task.status = 'running';
  task.kill = running.kill;
  task.done = running.done.then((outcome) => {
    task.exitCode = outcome.exitCode;
    task.signal = outcome.signal;
    if (outcome.outputCut) task.outputCutAt = outcome.output.limit;
    task.endedAt = Date.now();
    // A task already marked stopped (task_stop, shutdown) keeps that status.
    if (task.status === 'running') task.status = outcome.exitCode === 0 ? 'completed' : 'failed';
  });
}

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** How a finished process ended, e.g. "exit code 0", "signal SIGTERM"; a child agent, its status. */
export function endOf(task: BackgroundTask): string {
  if (task.agent) return task.agent.status.replace('_', ' ');
  const how = task.signal ? `signal ${task.signal}` : `exit code ${task.exitCode}`;
  if (task.outputCutAt === undefined) return how;
  return `${how}: output cut at ${describeSize(task.outputCutAt)} (settings commands.maxOutputBytes); the task was stopped`;
}

/** One line per task, for task_list. */
export function taskLine(task: BackgroundTask): string {
  const parts = [`${task.id} [${task.status}] ${task.subject}`];
  if (task.command) parts.push(`$ ${task.command}`);
  if (task.endedAt && (task.command || task.agent))
    parts.push(`${endOf(task)} after ${seconds(task.endedAt - task.createdAt)}`);
  else if (task.status === 'running') parts.push(`running for ${seconds(Date.now() - task.createdAt)}`);
  return parts.join(' — ');
}

/** What the task tools return as `data`. */
export function taskData(task: BackgroundTask): Record<string, unknown> {
  const { kill: _kill, done: _done, ...data } = task;
  return data;
}
