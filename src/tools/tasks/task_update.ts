import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import type { TaskStatus } from '../../tool/context/tasks.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { lookupTask, TASKS_AVAILABILITY, taskData } from './task_table.js';
import { ANY_TASK_STATUS, statusProblem, TEAM_PARAMETER, updateTeamTask } from './team_tasks.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    id: z.string().min(1).describe('The id task_create returned'),
    subject: z.string().min(1).optional(),
    description: z.string().optional(),
    status: z
      .enum(ANY_TASK_STATUS)
      .optional()
      .describe(
        "For tasks without a command (a command task follows its process); a team's task is open, claimed or done",
      ),
    team: z.string().min(1).optional().describe(TEAM_PARAMETER),
    owner: z
      .string()
      .optional()
      .describe('With team: who has claimed the task (a member\'s name); "" clears it'),
  }),
);

export const taskUpdate = buildTool({
  name: 'task_update',
  inputSchema,
  description:
    "Change a task's subject or description, or the status of a task without a command (pending → running → " +
    'completed / failed / stopped). A command task takes its status from its process; stop one with task_stop. ' +
    "With team, changes an item of that team's shared list: its status (open, claimed, done) and owner.",
  availability: TASKS_AVAILABILITY,
  kind: 'other',
  userFacingName: () => 'Update task',
  validateInput(input) {
    if (input.owner !== undefined && input.team === undefined)
      return "owner is for a team's task: give team too.";
    const changes = [input.subject, input.description, input.status, input.owner];
    if (changes.every((change) => change === undefined))
      return `Nothing to change: give a subject, a description${input.team ? ', an owner' : ''} or a status.`;
    return statusProblem(input.team, input.status);
  },
  async call(input, ctx) {
    if (input.team !== undefined) return updateTeamTask(ctx, input.team, input);
    const found = lookupTask(ctx, input.id);
    if ('error' in found) return found.error;
    const { task } = found;
    if (input.status !== undefined && task.command !== undefined && input.status !== task.status) {
      return {
        isError: true,
        text: `${task.id} runs a command, so its status (${task.status}) follows its process. Stop it with task_stop.`,
      };
    }
    if (input.subject !== undefined) task.subject = input.subject;
    if (input.description !== undefined) task.description = input.description;
    if (input.status !== undefined && task.command === undefined) {
      // validateInput let only a session task's status through.
      task.status = input.status as TaskStatus;
      const ended = input.status === 'completed' || input.status === 'failed' || input.status === 'stopped';
      task.endedAt = ended ? Date.now() : undefined;
    }
    return { text: `Updated ${task.id} [${task.status}] ${task.subject}.`, data: taskData(task) };
  },
});
