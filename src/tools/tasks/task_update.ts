import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lookupTask, TASKS_AVAILABILITY, taskData } from './task_table.js';

const inputSchema = z.strictObject({
  id: z.string().min(1).describe('The id task_create returned'),
  subject: z.string().min(1).optional(),
  description: z.string().optional(),
  status: z
    .enum(['pending', 'running', 'completed', 'failed', 'stopped'])
    .optional()
    .describe('For tasks without a command; a command task follows its process'),
});

export const taskUpdate = buildTool({
  name: 'task_update',
  inputSchema,
  description:
    "Change a task's subject or description, or the status of a task without a command (pending → running → " +
    'completed / failed / stopped). A command task takes its status from its process; stop one with task_stop.',
  availability: TASKS_AVAILABILITY,
  kind: 'other',
  title: () => 'Update task',
  validateInput(input) {
    if (input.subject === undefined && input.description === undefined && input.status === undefined)
      return 'Nothing to change: give a subject, a description or a status.';
    return undefined;
  },
  async call(input, ctx) {
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
      task.status = input.status;
      const ended = input.status === 'completed' || input.status === 'failed' || input.status === 'stopped';
      task.endedAt = ended ? Date.now() : undefined;
    }
    return { text: `Updated ${task.id} [${task.status}] ${task.subject}.`, data: taskData(task) };
  },
});
