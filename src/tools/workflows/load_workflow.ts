import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { touchesNothing } from '../../tool/declared_subject.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { displayPath } from '../shared/paths.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).describe('The workflow name, as listed (e.g. "release")'),
  }),
);

export const loadWorkflow = buildTool({
  name: 'load_workflow',
  inputSchema,
  description:
    'Load a workflow of this project or user (.agents/workflows/*.md): the list of steps to follow for a ' +
    'recurring task. Load it when the user names a workflow or the task matches one, then follow its steps.',
  liteDescription: "Load a workflow's steps by name.",
  availability: { profiles: ['standard'], requires: ['workflows'] },
  kind: 'read',
  // Touches only the session's workflows: nothing the permission engine judges.
  permissionSubject: touchesNothing,
  example: { input: { name: 'release' } },
  isReadOnly: () => true,
  userFacingName: () => 'Load workflow',
  detail: (input) => input.name,
  async call(input, ctx) {
    const workflows = ctx.workflows?.workflows ?? [];
    const found = workflows.find((workflow) => workflow.name === input.name);
    if (!found) {
      const names = workflows.map((workflow) => workflow.name);
      return {
        isError: true,
        text: `No workflow "${input.name}". Workflows: ${names.length > 0 ? names.join(', ') : 'none'}.`,
      };
    }
    return {
      text: `Workflow "${found.name}" (${displayPath(ctx, found.path)}): ${found.description}\n\n${found.steps}`,
      data: { name: found.name, path: found.path },
    };
  },
});
