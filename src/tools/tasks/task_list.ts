import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { TASKS_AVAILABILITY, taskData, taskLine, taskTable } from './task_table.js';
import { ANY_TASK_STATUS, listTeamTasks, statusProblem, TEAM_PARAMETER } from './team_tasks.js';

export const taskList = buildTool({
  name: 'task_list',
  inputSchema: lazySchema(() =>
    z.strictObject({
      status: z
        .enum(ANY_TASK_STATUS)
        .optional()
        .describe("Only tasks with this status (a team's: open, claimed, done)"),
      team: z.string().min(1).optional().describe(TEAM_PARAMETER),
    }),
  ),
  description:
    "List this session's tasks with their status, oldest first; with team, that team's shared task list.",
  availability: TASKS_AVAILABILITY,
  kind: 'read',
  // Touches only lathe's task table: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: {} },
  userFacingName: () => 'Tasks',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  validateInput: (input) => statusProblem(input.team, input.status),
  async call(input, ctx) {
    if (input.team !== undefined) return listTeamTasks(ctx, input.team, input.status);
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
