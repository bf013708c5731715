import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { BackgroundTask } from '../../tool/context/tasks.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';
import { commandCallFacts, commandSubject, cwdProblem, startShellCommand } from './shell_run.js';
import {
  attachProcess,
  newTaskId,
  TASKS_AVAILABILITY,
  taskData,
  taskOutputPath,
  taskTable,
} from './task_table.js';
import { createTeamTask, TEAM_PARAMETER } from './team_tasks.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    subject: z.string().min(1).describe('A short title: what the task is for'),
    description: z.string().optional().describe('More detail: what done looks like'),
    command: z
      .string()
      .min(1)
      .optional()
      .describe('A shell command that does the work in the background; without one the task is only tracked'),
    cwd: z.string().optional().describe('Folder to run the command in, inside the workspace'),
    team: z.string().min(1).optional().describe(TEAM_PARAMETER),
  }),
);

export const taskCreate = buildTool({
  name: 'task_create',
  inputSchema,
  description:
    'Create a background task. With a command, it starts at once as a real process (builds, test suites, ' +
    'servers) and you carry on: check it with task_get or task_list, read its output with task_output, ' +
    'stop it with task_stop. Without a command, the task is a tracked item whose status you set with task_update. ' +
    "With team, the task goes on that team's shared list (open, then claimed by an owner, then done), seen by every member.",
  availability: TASKS_AVAILABILITY,
  kind: 'execute',
  userFacingName: () => 'Start task',
  detail: (input) => input.command ?? input.subject,
  parseFacts: (input) => commandCallFacts(input.command),
  permissionSubject: (input, _ctx, facts) =>
    input.command ? commandSubject(facts, input.command, input.cwd) : { kind: 'none' },
  async validateInput(input, ctx) {
    if (input.team !== undefined && input.command !== undefined)
      return "A team's task is tracked only: drop command, or leave out team to run the command here.";
    if (input.cwd !== undefined && input.command === undefined) return 'cwd needs a command to run there.';
    return cwdProblem(ctx, input.cwd);
  },
  async call(input, ctx) {
    if (input.team !== undefined) return createTeamTask(ctx, input.team, input);
    const table = taskTable(ctx);
    if ('error' in table) return table.error;
    const { tasks } = table;
    const task: BackgroundTask = {
      id: newTaskId(),
      subject: input.subject,
      ...(input.description ? { description: input.description } : {}),
      status: 'pending',
      createdAt: Date.now(),
      readOffset: 0,
    };
    if (!input.command) {
      tasks.set(task.id, task);
      return {
        text: `Created ${task.id} (pending): ${task.subject}. Set its status with task_update as the work goes.`,
        data: taskData(task),
      };
    }
    task.command = input.command;
    task.outputPath = taskOutputPath(ctx, task.id);
    const running = await startShellCommand(ctx, {
      command: input.command,
      cwd: input.cwd,
      outputPath: task.outputPath,
    });
    attachProcess(task, running);
    tasks.set(task.id, task);
    return {
      text:
        `Started ${task.id}: ${task.subject} (pid ${running.pid}). Output goes to ` +
        `${displayPath(ctx, task.outputPath)}; read it with task_output, stop it with task_stop.`,
      data: { ...taskData(task), pid: running.pid },
    };
  },
});
