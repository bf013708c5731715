import { FieldError } from '../agent_types/field_error.js';
import { optionalString, requiredString } from '../agent_types/fields.js';
import { parseToml } from '../agent_types/parsers.js';
import { shellQuote } from './arguments.js';
import { readReferencedFile } from './file_reference.js';
import type { ReadCommand } from './markdown_command.js';
import type { ExpandContext } from './prompt_command.js';

/**
 * `@{path}`, `!{command}` (which may hold `{{args}}`, nothing else in braces) and `{{args}}`,
 * found in one pass so that text put in by one part is never read as another.
 */
const PARTS = /@\{([^}]*)\}|!\{((?:[^{}]|\{\{args\}\})*)\}|\{\{args\}\}/g;

/**
 * Expands a Gemini CLI prompt: `@{path}` is the file's text (inside the workspace only),
 * `!{command}` the command's output with `{{args}}` in it as one shell-quoted word, and
 * `{{args}}` elsewhere the arguments as typed. A prompt without `{{args}}` gets the invocation
 * after it, as Gemini CLI does.
 */
export async function expandTomlPrompt(
  template: string,
  invocation: { name: string; args: string },
  context: ExpandContext,
): Promise<string> {
  const { args } = invocation;
  let text = '';
  let last = 0;
  let tookArgs = false;
  for (const match of template.matchAll(PARTS)) {
    text += template.slice(last, match.index);
    last = match.index + match[0].length;
    if (match[1] !== undefined) text += readReferencedFile(match[1], context.workspace);
    else if (match[2] !== undefined) {
      tookArgs ||= match[2].includes('{{args}}');
      text += await context.runShell(match[2].replaceAll('{{args}}', shellQuote(args)).trim());
    } else {
      tookArgs = true;
      text += args;
    }
  }
  text += template.slice(last);
  const trimmed = args.trim();
  return tookArgs || trimmed === '' ? text : `${text}\n\n/${invocation.name} ${trimmed}`;
}

/** A Gemini CLI command file (`.gemini/commands/**\/*.toml`): `prompt` (required) and `description`. */
export function readTomlCommand(text: string, where: { name: string; path: string }): ReadCommand {
  let data: Record<string, unknown>;
  try {
    data = parseToml(text);
  } catch (error) {
    throw new FieldError('toml', `is not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
  const prompt = requiredString(data, 'prompt');
  const notes: string[] = [];
  let description: string | undefined;
  try {
    description = optionalString(data, 'description');
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    notes.push(`"description" ${error.message}: left out`);
  }
  return {
    notes,
    body: prompt,
    command: {
      name: where.name,
      kind: 'command',
      description: description ?? prompt.split('\n')[0].slice(0, 100),
      path: where.path,
      expand: async (args, context) => ({
        text: await expandTomlPrompt(prompt, { name: where.name, args }, context),
      }),
    },
  };
}
