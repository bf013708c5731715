import { FieldError } from '../agent_types/field_error.js';
import { type Fields, optionalString } from '../agent_types/fields.js';
import { readMarkdownAgent } from '../agent_types/frontmatter.js';
import { claudeModel, latheModel } from '../agent_types/model_names.js';
import { allowedToolRules } from '../skills/allowed_tools.js';
import type { PromptCommand } from './prompt_command.js';
import { expandMarkdownTemplate } from './template.js';

/** What a command file gives: the command, and lines about fields that were not applied. */
export interface ReadCommand {
  command: PromptCommand;
  notes: string[];
  /** The prompt as written (after any frontmatter). */
  body: string;
}

const FENCE = /^\uFEFF?---[ \t]*\r?\n/;

/** The longest description shown for a command that has none (its first line stands in). */
const MAX_DESCRIPTION = 100;

/** A file's frontmatter fields and body; a file without frontmatter is all body (many command files have none). */
function splitFile(text: string): { data: Fields; body: string; notes: string[] } {
  if (!FENCE.test(text)) return { data: {}, body: text.replace(/\r\n?/g, '\n').trim(), notes: [] };
  const { data, body, notYaml } = readMarkdownAgent(text);
  return {
    data,
    body,
    notes: notYaml ? [`frontmatter is not valid YAML (${notYaml}): read as plain lines`] : [],
  };
}

/** `allowed-tools` as lathe permission rules (Claude Code's names mapped); what cannot be used is noted. */
function toolRules(data: Fields, notes: string[]): string[] | undefined {
  const value = data['allowed-tools'];
  if (value === undefined || value === null) return undefined;
  const { rules, problems } = allowedToolRules(value);
  notes.push(...problems);
  return rules;
}

/** Applies one field with `read`; a field that cannot be used is left out with a note, the command stays. */
function field<T>(notes: string[], read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    notes.push(`"${error.field}" ${error.message}: left out`);
    return undefined;
  }
}

function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim() !== '') ?? '';
  const plain = line.replace(/^#+\s*/, '').trim();
  return plain.length > MAX_DESCRIPTION ? `${plain.slice(0, MAX_DESCRIPTION - 1)}…` : plain;
}

/**
 * A Markdown command (`.agents/commands/`, `.claude/commands/`): optional frontmatter
 * (`description`, `argument-hint`, `allowed-tools`, `model`) and a body that is the prompt, with
 * `$ARGUMENTS`, `$1`…`$9` and `` !`command` `` expanded. A body with no placeholder gets the
 * arguments after it. Throws a `FieldError` when the file cannot be a command.
 */
export function readMarkdownCommand(
  text: string,
  where: { name: string; path: string; style: 'lathe' | 'claude' },
): ReadCommand {
  const { data, body, notes } = splitFile(text);
  if (body === '') throw new FieldError('body', 'is empty: the prompt goes after the frontmatter');
  const description = field(notes, () => optionalString(data, 'description')) ?? firstLine(body);
  const argumentHint = field(notes, () => optionalString(data, 'argument-hint'));
  const allowedTools = toolRules(data, notes);
  const choice = field(notes, () => {
    const value = optionalString(data, 'model');
    return where.style === 'claude' ? claudeModel(value) : latheModel(value);
  });
  if (choice?.note) notes.push(choice.note.replace("the parent's model", "the session's model"));
  const model = choice?.model;
  return {
    notes,
    body,
    command: {
      name: where.name,
      kind: 'command',
      description,
      ...(argumentHint ? { argumentHint } : {}),
      path: where.path,
      async expand(args, context) {
        const expanded = await expandMarkdownTemplate(body, args, context);
        const trimmed = args.trim();
        const text =
          expanded.placeholders || trimmed === ''
            ? expanded.text
            : `${expanded.text}\n\nARGUMENTS: ${trimmed}`;
        return { text, ...(allowedTools?.length ? { allowedTools } : {}), ...(model ? { model } : {}) };
      },
    },
  };
}
