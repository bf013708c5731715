import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument } from 'yaml';
import { JobInputError } from './errors.js';
import { type JobSpec, parseJobSpec } from './job_spec.js';

/**
 * Reads a job file: JSONL (one job object a line; `.jsonl`, `.json`, or any file whose first
 * non-blank character is `{`) or a YAML list of jobs. Each error names the file, the line and
 * the field. Relative local repositories are resolved against the file's folder.
 */
export function readJobFile(path: string): JobSpec[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new JobInputError(
      `cannot read the job file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const name = basename(path);
  const jobs = text.trimStart().startsWith('{')
    ? jsonLines(text, name, dirname(path))
    : yamlList(text, name, dirname(path));
  if (jobs.length === 0) throw new JobInputError(`${name}: no jobs in the file`);
  return noDuplicateIds(jobs, name);
}

function jsonLines(text: string, name: string, cwd: string): JobSpec[] {
  const jobs: JobSpec[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const where = `${name} line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new JobInputError(`${where}: not valid JSON (${(error as Error).message})`);
    }
    jobs.push(parseJobSpec(value, where, cwd));
  });
  return jobs;
}

function yamlList(text: string, name: string, cwd: string): JobSpec[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const [problem] = doc.errors;
  if (problem)
    throw new JobInputError(
      `${name} line ${problem.linePos?.[0].line ?? '?'}: not valid YAML (${problem.message.split('\n')[0]})`,
    );
  if (!isSeq(doc.contents)) throw new JobInputError(`${name}: must be a YAML list of jobs, or JSON Lines`);
  return doc.contents.items.map((item) => {
    const offset = isMap(item) ? item.range?.[0] : undefined;
    const where = `${name} line ${offset === undefined ? '?' : lines.linePos(offset).line}`;
    return parseJobSpec((item as { toJSON?: () => unknown })?.toJSON?.() ?? item, where, cwd);
  });
}

/** One job per id: the same job twice is one job; two different jobs under one id are an error. */
function noDuplicateIds(jobs: JobSpec[], name: string): JobSpec[] {
  const seen = new Map<string, string>();
  return jobs.filter((job) => {
    const text = JSON.stringify(job);
    const earlier = seen.get(job.id);
    if (earlier === undefined) {
      seen.set(job.id, text);
      return true;
    }
    if (earlier !== text) throw new JobInputError(`${name}: two different jobs have the id "${job.id}"`);
    return false;
  });
}
