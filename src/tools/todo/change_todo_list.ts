import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from '../conversation/no_agent.js';

const STATUSES = ['pending', 'in_progress', 'completed'] as const;
type Status = (typeof STATUSES)[number];

const itemSchema = z.strictObject({
  text: z.string().min(1).describe('What is to be done, in a few words'),
  status: z.enum(STATUSES),
});

const inputSchema = lazySchema(() =>
  z.strictObject({
    todos: z
      .array(itemSchema)
      .min(1)
      .max(50)
      .describe('The whole new list, in order (it replaces the current one)'),
  }),
);

type Todo = z.infer<typeof itemSchema>;

const BOX: Record<Status, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** The session's current list lives beside its log, so a resumed session finds it again. */
const listPath = (sessionDir: string) => join(sessionDir, 'todo.json');

async function currentList(sessionDir: string): Promise<Todo[]> {
  try {
    const parsed = z.array(itemSchema).safeParse(JSON.parse(await readFile(listPath(sessionDir), 'utf8')));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/**
 * The proposal as a diff against the current list: `+` new items, `-` dropped ones, `~` a
 * changed status, two spaces for an item that stays as it is.
 */
export function todoDiff(current: readonly Todo[], proposed: readonly Todo[]): string {
  const before = new Map(current.map((item) => [item.text, item.status]));
  const kept = new Set(proposed.map((item) => item.text));
  const lines = proposed.map((item) => {
    const was = before.get(item.text);
    const mark = was === undefined ? '+' : was === item.status ? ' ' : '~';
    return `${mark} ${BOX[item.status]} ${item.text}`;
  });
  for (const item of current) if (!kept.has(item.text)) lines.push(`- ${BOX[item.status]} ${item.text}`);
  return lines.join('\n');
}

export const changeTodoList = buildTool({
  name: 'change_todo_list',
  inputSchema,
  description:
    'Propose a new todo list for the task: the whole list, each item pending, in_progress or completed. The ' +
    'user sees it as a change to the current list and approves it; keep one item in_progress, mark items ' +
    'completed as you finish them, and add what you discover.',
  availability: { profiles: ['standard'], feature: 'focus_chain', notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Todo list',
  permissionSubject: () => ({ kind: 'todo' }),
  call: (input, ctx) =>
    withInteraction(ctx, 'change_todo_list', async (agent) => {
      const current = await currentList(ctx.sessionDir);
      const body = todoDiff(current, input.todos);
      const answer = await agent.confirm({ kind: 'todo', title: 'Todo list', body });
      const said = answer.feedback ? ` They said: ${answer.feedback}` : '';
      if (!answer.approved)
        return { text: `The user did not approve the new todo list; the current one stays.${said}` };
      await atomicWriteFile(listPath(ctx.sessionDir), `${JSON.stringify(input.todos, null, 2)}\n`);
      agent.emit({ type: 'todo', items: input.todos });
      const done = input.todos.filter((item) => item.status === 'completed').length;
      return {
        text: `The todo list was updated: ${input.todos.length} items, ${done} completed.${said}`,
        data: { todos: input.todos },
      };
    }),
});
