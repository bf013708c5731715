import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';
import { fileSize } from './output_file.js';
import { endOf, lookupTask, TASKS_AVAILABILITY, taskData } from './task_table.js';

export const taskGet = buildTool({
  name: 'task_get',
  inputSchema: lazySchema(() =>
    z.strictObject({ id: z.string().min(1).describe('The id task_create returned') }),
  ),
  description:
    'Show one task: subject, description, status, command, how it ended, and how much output is unread.',
  availability: TASKS_AVAILABILITY,
  kind: 'read',
  // Touches only lathe's task table: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { id: 'task_1' } },
  userFacingName: () => 'Task',
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  async call(input, ctx) {
    const found = lookupTask(ctx, input.id);
    if ('error' in found) return found.error;
    const { task } = found;
    const lines = [`${task.id} [${task.status}] ${task.subject}`];
    if (task.description) lines.push(task.description);
    lines.push(`created ${new Date(task.createdAt).toISOString()}`);
    let size: number | undefined;
    if (task.command || task.agent) {
      if (task.command) lines.push(`command: ${task.command}`);
      if (task.agent) lines.push(`${task.agent.type} subagent, session log ${task.agent.logPath}`);
      if (task.endedAt) lines.push(`ended ${new Date(task.endedAt).toISOString()} with ${endOf(task)}`);
      size = await fileSize(task.outputPath!);
      const unread = Math.max(0, size - task.readOffset);
      lines.push(`output: ${size} bytes in ${displayPath(ctx, task.outputPath!)}, ${unread} not yet read`);
    }
    return {
      text: lines.join('\n'),
      data: { ...taskData(task), ...(size !== undefined ? { outputBytes: size } : {}) },
    };
  },
});
