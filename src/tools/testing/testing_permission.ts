import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

/** Test-only: a tool that changes nothing but goes through the permission path of an edit. */
export const testingPermission = buildTool({
  name: 'testing_permission',
  inputSchema: lazySchema(() => z.strictObject({ path: z.string().optional() })),
  description: 'Test tool: asks for edit permission on a path and does nothing.',
  availability: { profiles: ['standard', 'lite', 'simple'], testOnly: true },
  kind: 'other',
  userFacingName: () => 'Permission test',
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path ?? '.'] }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  // lathe's own fact: it stands for an edit, so Plan mode asks for it as for one.
  planModeAllowed: false,
  async call(input) {
    return { text: `permission granted for ${input.path ?? '.'}` };
  },
});
