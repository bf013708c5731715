import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { absolutePath, displayPath, pathKind, pathProblem } from '../shared/paths.js';

/** A size as people read it: 12 B, 3.4 KB, 5.6 MB. */
function describeSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export const sendUserFile = buildTool({
  name: 'send_user_file',
  inputSchema: lazySchema(() =>
    z.strictObject({
      path: z
        .string()
        .min(1)
        .describe('The file to give the user (relative to the working folder, or absolute)'),
      caption: z.string().optional().describe('One line saying what the file is'),
    }),
  ),
  description:
    'Give the user a file you made or found (a report, an export, a screenshot): the interface shows it with ' +
    'its caption and full path so they can open it. The file is read, not copied or changed; it must exist.',
  availability: { profiles: ['standard'], feature: 'assistant' },
  kind: 'read',
  userFacingName: () => 'Send file',
  example: { files: { 'report.md': '# Report\n' }, input: { path: 'report.md', caption: 'The report' } },
  // lathe's own fact: offering the user a file reads it, so Plan mode lets it run.
  planModeAllowed: true,
  // Offering a file reads it: read rules (a deny on .env) hold.
  permissionSubject: (input) => ({ kind: 'read', paths: [input.path] }),
  async call(input, ctx) {
    const absolute = absolutePath(ctx, input.path);
    const shown = displayPath(ctx, absolute);
    const found = await pathKind(absolute);
    const problem = pathProblem(shown, found.kind, 'file');
    if (problem) return { isError: true, text: problem };
    const caption = input.caption?.trim() || undefined;
    ctx.interaction?.emit({
      type: 'user_file',
      path: shown,
      absolutePath: absolute,
      bytes: found.size,
      ...(caption ? { caption } : {}),
    });
    return {
      text: `Sent the user ${shown} (${describeSize(found.size)}): ${absolute}${caption ? ` — ${caption}` : ''}`,
      data: { path: shown, absolutePath: absolute, bytes: found.size, ...(caption ? { caption } : {}) },
    };
  },
});
