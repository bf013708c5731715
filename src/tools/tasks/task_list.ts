import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { TASKS_AVAILABILITY, taskData, taskLine, taskTable } from './task_table.js';

const STATUSES = ['pending', 'running', 'completed', 'failed', 'stopped'] as const;

export const taskList = buildTool({
  name: 'task_list',
  inputSchema: z.strictObject({
    status: z.enum(STATUSES).optional().describe('Only tasks with this status'),
  }),
  description: "List this session's tasks with their status, oldest first.",
  availability: TASKS_AVAILABILITY,
  kind: 'read',
  example: { input: {} },
  title: () => 'Tasks',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(input, ctx) {
    const table = taskTable(ctx);
    if ('error' in table) return table.error;
    const { tasks } = table;
    const shown = [...tasks.values()].filter((t) => !input.status || t.status === input.status);
    if (shown.length === 0)
      return {
        text: input.status ? `No ${input.status} tasks.` : 'No tasks yet; task_create makes one.',
        data: [],
      };
    return { text: shown.map(taskLine).join('\n'), data: shown.map(taskData) };
  },
});
