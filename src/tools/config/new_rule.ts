import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { atomicWriteFile } from '../../edit/atomic_write.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { previewFileChange } from '../edit/change_preview.js';
import { displayPath } from '../shared/paths.js';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const inputSchema = lazySchema(() =>
  z.strictObject({
    name: z
      .string()
      .regex(NAME, 'lower-case letters, digits, ".", "_" and "-", at most 64, e.g. "testing" or "api-style"')
      .describe('File name of the rule, without .md: .agents/rules/<name>.md'),
    content: z
      .string()
      .min(1)
      .describe('The rule, in Markdown: short, specific instructions for this project'),
  }),
);

/** The rule file of a name, relative to the workspace. */
export const ruleFilePath = (name: string) => join('.agents', 'rules', `${name}.md`);

/** A rule file's text: the content, ending with a newline. */
const ruleText = (content: string) => (content.endsWith('\n') ? content : `${content}\n`);

export const newRule = buildTool({
  name: 'new_rule',
  inputSchema,
  description:
    'Create or replace a rule file for this project at .agents/rules/<name>.md: standing instructions every ' +
    'later session follows (conventions, commands, things to avoid). Write it from what the user asked and what ' +
    'this conversation showed; keep it short and specific. The user approves the file before it is written.',
  // Lite offers only the tools seed 000 marks Lite; this one is not among them.
  availability: { profiles: ['standard'], notFor: ['subagent'] },
  kind: 'edit',
  example: { input: { name: 'style', content: 'Use tabs.' } },
  refusedInStrictPlan: true,
  askVerb: 'Write the rule',
  detail: (input) => `.agents/rules/${input.name}.md`,
  touchedPaths: (input, ctx) => [join(ctx.workspace, ruleFilePath(input.name))],
  describeChange: (input, ctx) =>
    previewFileChange(ctx, join(ctx.workspace, ruleFilePath(input.name)), () => ruleText(input.content)),
  // The rules folder is under .agents/, a protected path: the user is always asked.
  permissionSubject: (input, ctx) => ({
    kind: 'edit',
    paths: [join(ctx.workspace, ruleFilePath(input.name))],
  }),
  userFacingName: () => 'Rule',
  async call(input, ctx) {
    const path = join(ctx.workspace, ruleFilePath(input.name));
    const existed = await lstat(path).then(
      () => true,
      () => false,
    );
    await atomicWriteFile(path, ruleText(input.content));
    const shown = displayPath(ctx, path);
    return {
      text: `${existed ? 'Replaced' : 'Created'} the rule ${shown}.`,
      data: { path: shown, created: !existed },
    };
  },
});
