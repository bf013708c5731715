import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { endOf, lookupTask, TASK_CONTROL_AVAILABILITY, taskData } from './task_table.js';

export const taskStop = buildTool({
  name: 'task_stop',
  deferred: true,
  inputSchema: lazySchema(() =>
    z.strictObject({ id: z.string().min(1).describe('The id task_create returned') }),
  ),
  description:
    "Stop a running task: its command's whole process tree ends, or its child agent stops. A tracked task is marked stopped.",
  availability: { ...TASK_CONTROL_AVAILABILITY, coordinator: true },
  kind: 'other',
  userFacingName: () => 'Stop task',
  isConcurrencySafe: () => true,
  // lathe's own fact: it ends the task's process tree.
  destroysExisting: true,
  async call(input, ctx) {
    const found = lookupTask(ctx, input.id);
    if ('error' in found) return found.error;
    const { task } = found;
    if (task.status !== 'running' && task.status !== 'pending') {
      const how = task.command && task.endedAt ? ` (${endOf(task)})` : '';
      return { text: `${task.id} had already ended: ${task.status}${how}.`, data: taskData(task) };
    }
    task.status = 'stopped';
    if (task.kill) {
      task.kill();
      await task.done;
    } else task.endedAt = Date.now();
    return { text: `Stopped ${task.id}: ${task.subject}.`, data: taskData(task) };
  },
});
