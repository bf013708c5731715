import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { withInteraction } from './no_agent.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    title: z.string().min(1),
    summary: z.string().min(1).describe('The findings in a few sentences'),
    sections: z
      .array(z.strictObject({ heading: z.string().min(1), body: z.string() }))
      .optional()
      .describe('Further sections, in order'),
  }),
);

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 50) || 'report'
  );
}

export const generateReport = buildTool({
  name: 'generate_report',
  inputSchema,
  description:
    'Give the user a structured report to review (an investigation, an audit, a comparison): a title, a ' +
    'summary and sections. It is saved with the session.',
  liteDescription: 'Give the user a structured report.',
  // A subagent talks to its parent only through its final answer.
  availability: { profiles: ['standard', 'lite'], notFor: ['subagent'] },
  kind: 'conversation',
  needsAgent: true,
  userFacingName: () => 'Report',
  isReadOnly: () => true,
  call: (input, ctx) =>
    withInteraction(ctx, 'generate_report', async (agent) => {
      const markdown = [
        `# ${input.title}`,
        '',
        input.summary,
        ...(input.sections ?? []).flatMap((s) => ['', `## ${s.heading}`, '', s.body]),
      ].join('\n');
      const dir = join(ctx.sessionDir, 'reports');
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const path = join(dir, `${Date.now()}-${slug(input.title)}.md`);
      await writeFile(path, `${markdown}\n`, { mode: 0o600 });
      agent.emit({ type: 'report', title: input.title, markdown, path });
      return { text: `The report was shown to the user and saved at ${path}.`, data: { path } };
    }),
});
