import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { FieldError } from '../agent_types/field_error.js';
import type { Fields } from '../agent_types/fields.js';
import { readMarkdownAgent } from '../agent_types/frontmatter.js';
import { allowedToolRules } from './allowed_tools.js';
import {
  firstParagraph,
  MAX_COMPATIBILITY,
  MAX_DESCRIPTION,
  metadataField,
  nameProblem,
  SKILL_FIELDS,
  switchField,
  textField,
} from './fields.js';
import type { Skill, SkillPlace } from './types.js';

/** A SKILL.md this large is no skill. */
const MAX_FILE_BYTES = 256 * 1024;
/** One byte more than a skill may have, reused for every SKILL.md read (reading is synchronous). */
const scratch = Buffer.alloc(MAX_FILE_BYTES + 1);

export interface SkillRead {
  skill?: Skill;
  /** Each problem as a line naming the file (as `show` gives it) and the field. */
  warnings: string[];
}

export interface ReadContext {
  place: SkillPlace;
  /** How a path appears in warnings (relative to the workspace, `~/…`, or absolute). */
  show(path: string): string;
  isTool?: (name: string) => boolean;
}

/**
 * The text of a folder's SKILL.md: the exact name, else another spelling of it (with a note);
 * none when there is neither. Read with one open, so that finding many skills stays cheap.
 */
function readSkillFile(folder: string): { file?: string; text?: string; note?: string; error?: string } {
  const read = (file: string) => {
    const fd = openSync(file, 'r');
    try {
      // Read until the end rather than asking the size first: one call fewer per skill.
      const length = readSync(fd, scratch, 0, scratch.length, 0);
      if (length > MAX_FILE_BYTES)
        return { file, error: `the file is larger than ${MAX_FILE_BYTES / 1024} KB` };
      return { file, text: scratch.toString('utf8', 0, length) };
    } finally {
      closeSync(fd);
    }
  };
  let file = join(folder, 'SKILL.md');
  try {
    return read(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      return {
        file,
        error: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      };
  }
  const other = readdirSync(folder).find((name) => name.toLowerCase() === 'skill.md');
  if (!other) return {};
  file = join(folder, other);
  const note = `the file should be named SKILL.md, not ${other}`;
  try {
    return { ...read(file), note };
  } catch (error) {
    return {
      file,
      note,
      error: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    };
  }
}

/** A SKILL.md's frontmatter and text; a file without frontmatter is all text. */
export function splitSkillFile(text: string): {
  data: Fields;
  body: string;
  notes: string[];
  noFrontmatter?: boolean;
} {
  try {
    const { data, body, notYaml } = readMarkdownAgent(text);
    return {
      data,
      body,
      notes: notYaml ? [`frontmatter is not valid YAML (${notYaml}): read as plain key: value lines`] : [],
    };
  } catch (error) {
    if (error instanceof FieldError && error.message.startsWith('is missing')) {
      const body = text.replace(/^\uFEFF/, '').trim();
      return {
        data: {},
        body,
        notes: ['frontmatter is missing: the name comes from the folder, the description from the text'],
        noFrontmatter: true,
      };
    }
    throw error;
  }
}

/**
 * Reads one skill folder. A skill with a problem is loaded where it can be (the folder's name
 * stands in for a bad name, the first paragraph for a missing description, a long description is
 * cut) and every problem becomes a warning naming the file and the field; a folder that cannot
 * be a skill says why it is not loaded.
 */
export function readSkillFolder(folder: string, context: ReadContext): SkillRead {
  const warnings: string[] = [];
  const found = readSkillFile(folder);
  if (!found.file) return { warnings: [`${context.show(folder)}: no SKILL.md in this folder: not loaded`] };
  const file = found.file;
  const warn = (line: string) => warnings.push(`${context.show(file)}: ${line}`);
  const notLoaded = (line: string): SkillRead => {
    warn(`${line}: not loaded`);
    return { warnings };
  };
  if (found.note) warn(found.note);
  if (found.text === undefined) return notLoaded(found.error ?? 'cannot be read');

  let parsed: ReturnType<typeof splitSkillFile>;
  try {
    parsed = splitSkillFile(found.text);
  } catch (error) {
    if (error instanceof FieldError) return notLoaded(`${error.field} ${error.message}`);
    throw error;
  }
  const { data, body } = parsed;
  for (const note of parsed.notes) warn(note);
  // Without frontmatter, that line says it all: no line more for each missing field.
  const missing = parsed.noFrontmatter ? () => {} : warn;

  const folderName = basename(folder);
  const name = readName(data, folderName, warn, missing);
  if (!name) return { warnings };
  const description = readDescription(data, body, warn, missing);
  if (!description) return notLoaded('description is missing and the file has no text to stand in');
  if (!body) warn('the text after the frontmatter is empty: the skill gives no instructions');

  const license = textField(data, 'license');
  if (!license.isText) warn('license must be text: ignored');
  const compatibility = textField(data, 'compatibility');
  if (!compatibility.isText) warn('compatibility must be text: ignored');
  let compatibilityText = compatibility.text;
  if (compatibilityText && compatibilityText.length > MAX_COMPATIBILITY) {
    warn(
      `compatibility is ${compatibilityText.length} characters long, more than ${MAX_COMPATIBILITY}: cut to ${MAX_COMPATIBILITY}`,
    );
    compatibilityText = compatibilityText.slice(0, MAX_COMPATIBILITY);
  }
  const metadata = metadataField(data.metadata);
  for (const problem of metadata.problems) warn(problem);
  const allowed =
    data['allowed-tools'] === undefined || data['allowed-tools'] === null
      ? { rules: [], problems: [] }
      : allowedToolRules(data['allowed-tools'], context.isTool);
  for (const problem of allowed.problems) warn(problem);
  const userInvocable = readSwitch(data, 'user-invocable', true, warn);
  const modelDisabled = readSwitch(data, 'disable-model-invocation', false, warn);
  const hint = textField(data, 'argument-hint');
  if (!hint.isText) warn('argument-hint must be text: ignored');
  for (const key of Object.keys(data))
    if (!(SKILL_FIELDS as readonly string[]).includes(key))
      warn(`${key} is not a skill field lathe reads: ignored`);

  const skill: Skill = {
    name,
    description,
    path: file,
    folder,
    place: context.place,
    ...(license.text ? { license: license.text } : {}),
    ...(compatibilityText ? { compatibility: compatibilityText } : {}),
    ...(metadata.metadata ? { metadata: metadata.metadata } : {}),
    allowedTools: allowed.rules,
    userInvocable,
    modelInvocable: !modelDisabled,
    ...(hint.text ? { argumentHint: hint.text } : {}),
    warnings,
  };
  return { skill, warnings };
}

/**
 * The skill's name: the frontmatter's when it is a good one, else the folder's when that is one;
 * undefined (said in a warning) when neither is.
 */
function readName(
  data: Fields,
  folderName: string,
  warn: (line: string) => void,
  missing: (line: string) => void,
): string | undefined {
  const folderOk = nameProblem(folderName) === undefined;
  const instead = folderOk
    ? `loaded as "${folderName}" (the folder's name)`
    : `and the folder's name "${folderName}" is no skill name either: not loaded`;
  const raw = textField(data, 'name');
  if (!raw.isText || raw.text === undefined) {
    (raw.isText && folderOk ? missing : warn)(
      `name ${raw.isText ? 'is missing' : 'must be text'}${folderOk ? ':' : ''} ${instead}`,
    );
    return folderOk ? folderName : undefined;
  }
  const problem = nameProblem(raw.text);
  if (problem) {
    warn(`name "${raw.text}" ${problem}${folderOk ? ':' : ''} ${instead}`);
    return folderOk ? folderName : undefined;
  }
  if (raw.text !== folderName) warn(`name "${raw.text}" does not match the folder's name "${folderName}"`);
  return raw.text;
}

/** The description, whitespace folded, cut at 1,024 characters; the first paragraph when it is missing. */
function readDescription(
  data: Fields,
  body: string,
  warn: (line: string) => void,
  missing: (line: string) => void,
): string | undefined {
  const raw = textField(data, 'description');
  let text = raw.text?.replace(/\s+/g, ' ');
  if (text === undefined) {
    const stand = firstParagraph(body);
    if (!stand) return undefined;
    (raw.isText ? missing : warn)(
      `description ${raw.isText ? 'is missing' : 'must be text'}: the first paragraph of the text stands in`,
    );
    text = stand;
  }
  if (text.length > MAX_DESCRIPTION) {
    warn(
      `description is ${text.length} characters long, more than ${MAX_DESCRIPTION}: cut to ${MAX_DESCRIPTION}`,
    );
    text = text.slice(0, MAX_DESCRIPTION);
  }
  return text;
}

function readSwitch(data: Fields, field: string, fallback: boolean, warn: (line: string) => void): boolean {
  const value = switchField(data, field);
  if (value === 'bad') {
    warn(`${field} must be true or false: taken as ${fallback}`);
    return fallback;
  }
  return value ?? fallback;
}
