import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FieldError } from '../agent_types/field_error.js';
import { splitSkillFile } from './read_skill.js';
import type { Skill } from './types.js';

/** A skill's folder lists at most this many files (its SKILL.md says which matter). */
export const MAX_RESOURCES = 100;
const MAX_DEPTH = 4;
const SKIPPED = new Set(['node_modules', '__pycache__']);

export interface SkillInstructions {
  /** The text of SKILL.md after its frontmatter, as it is on disk now. */
  body: string;
  /** The skill's other files (scripts/, references/, assets/, …), absolute, sorted. */
  resources: string[];
  /** More files than are listed. */
  truncated: boolean;
}

async function walk(folder: string, depth: number, found: string[]): Promise<boolean> {
  let names: string[];
  try {
    names = (await readdir(folder)).sort();
  } catch {
    return false;
  }
  for (const name of names) {
    if (name.startsWith('.') || SKIPPED.has(name)) continue;
    const path = join(folder, name);
    const entries = await readdir(path).then(
      () => true,
      () => false,
    );
    if (entries) {
      if (depth < MAX_DEPTH && (await walk(path, depth + 1, found))) return true;
      continue;
    }
    if (depth === 0 && name.toLowerCase() === 'skill.md') continue;
    if (found.length === MAX_RESOURCES) return true;
    found.push(path);
  }
  return false;
}

/** What loading a skill gives: its instructions, read afresh, and the files beside them. */
export async function readSkillInstructions(skill: Skill): Promise<SkillInstructions> {
  let text: string;
  try {
    text = await readFile(skill.path, 'utf8');
  } catch (error) {
    throw new Error(
      `The skill "${skill.name}" cannot be read now (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): ${skill.path}`,
    );
  }
  let body: string;
  try {
    body = splitSkillFile(text).body;
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    throw new Error(
      `The skill "${skill.name}" cannot be read now: ${skill.path}: ${error.field} ${error.message}`,
    );
  }
  const resources: string[] = [];
  const truncated = await walk(skill.folder, 0, resources);
  return { body, resources, truncated };
}
