import { FieldError } from '../agent_types/field_error.js';
import { readMarkdownCommand } from './markdown_command.js';
import type { PromptCommand } from './prompt_command.js';
import type { Workflow } from './types.js';

/**
 * A workflow file (`.agents/workflows/*.md`, `.clinerules/workflows/*.md`): optional frontmatter
 * with a `description`, then the steps. As a `/name` command the model gets the steps to follow,
 * with the arguments (`$ARGUMENTS` and `$1`…`$9` work as in commands).
 */
export function readWorkflow(
  text: string,
  where: { name: string; path: string; shown: string },
): { workflow: Workflow; command: PromptCommand; notes: string[] } {
  let read: ReturnType<typeof readMarkdownCommand>;
  try {
    read = readMarkdownCommand(text, { name: where.name, path: where.path, style: 'lathe' });
  } catch (error) {
    if (error instanceof FieldError && error.field === 'body')
      throw new FieldError('body', 'is empty: list the steps after the frontmatter');
    throw error;
  }
  const { command: asCommand, notes, body } = read;
  const workflow: Workflow = {
    name: where.name,
    description: asCommand.description,
    path: where.path,
    steps: body,
  };
  return {
    workflow,
    notes,
    command: {
      ...asCommand,
      kind: 'workflow',
      async expand(args, context) {
        const expanded = await asCommand.expand(args, context);
        return {
          ...expanded,
          text: `Follow the workflow "${where.name}" (${where.shown}) step by step:\n\n${expanded.text}`,
        };
      },
    },
  };
}
