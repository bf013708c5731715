import { createHash } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { PROFILES, type Profile } from '../config/types.js';
import { JobInputError } from './errors.js';

/** What a job may spend before it is stopped; its work so far is kept. */
export interface JobBudget {
  /** Model requests (`lathe -p --max-turns`). */
  turns?: number;
  /** Input + output tokens over the run. */
  tokens?: number;
  /** Wall time of the run, setup excluded. */
  seconds?: number;
  /** Dollars, from the model's known prices. */
  cost?: number;
}

/** One job as submitted, defaults filled in. */
export interface JobSpec {
  /** The idempotency key: given, or a hash of the rest. */
  id: string;
  /** An absolute local path or a git URL. */
  repo: string;
  /** A branch, tag or SHA of `repo`. */
  ref: string;
  prompt: string;
  model?: string;
  profile?: Profile;
  budget: JobBudget;
  /** Commands run once in the fresh worktree, in the sandbox, before the run. */
  setup: string[];
  /** Globs of the local repository's untracked or ignored files copied into the worktree (a local `repo` only). */
  include: string[];
  output: 'branch' | 'patch';
  /** Push the branch to a remote `repo`. */
  push: boolean;
  /** BullMQ priority: 1 is the highest; none runs after every prioritised job. */
  priority?: number;
  /** Run it again although it completed, or its output branch exists (`--rerun`); not part of its id. */
  rerun?: boolean;
}

const KNOWN = [
  'id',
  'repo',
  'ref',
  'prompt',
  'model',
  'profile',
  'budget',
  'setup',
  'include',
  'output',
  'push',
  'priority',
  'rerun',
];
const BUDGET_KEYS = ['turns', 'tokens', 'seconds', 'cost'];
const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const URL_PATTERN = /^(?:[a-z][a-z0-9+.-]*:\/\/|[\w.-]+@[\w.-]+:)/i;

/** Whether `repo` names a repository by URL (`https://`, `ssh://`, `file://`, scp-like `user@host:path`) rather than a local folder. */
export function isRemoteRepo(repo: string): boolean {
  return URL_PATTERN.test(repo);
}

/** Why `include` is refused for a repository given by URL: the files are copied from a local checkout. */
export const INCLUDE_NEEDS_LOCAL_REPO =
  'needs a local repo: the files are copied from its checkout; for a git URL, make them with "setup" commands';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The id of a job without one: a hash of what it is, so the same job submitted twice has one id. */
export function jobKey(spec: Omit<JobSpec, 'id'>): string {
  const { rerun: _rerun, ...job } = spec;
  return `job-${createHash('sha256').update(stableJson(job)).digest('hex').slice(0, 16)}`;
}

/** JSON with every object's keys sorted: one text per value, whatever order it was written in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .filter((k) => value[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/**
 * Checks one job as written (a line of JSONL, an item of a YAML list, flags) and fills in its
 * defaults. `where` begins each error ("jobs.jsonl line 3"); a relative local `repo` is resolved
 * against `cwd`.
 */
export function parseJobSpec(raw: unknown, where: string, cwd: string): JobSpec {
  const fail = (field: string, problem: string): never => {
    throw new JobInputError(`${where}: "${field}" ${problem}`);
  };
  if (!isObject(raw)) throw new JobInputError(`${where}: a job must be an object with "repo" and "prompt"`);
  for (const key of Object.keys(raw))
    if (!KNOWN.includes(key)) fail(key, `is not a job field (known: ${KNOWN.join(', ')})`);
  const text = (field: string, required: boolean): string | undefined => {
    const value = raw[field];
    if (value === undefined && !required) return undefined;
    if (typeof value !== 'string' || value.trim() === '') fail(field, 'must be a non-empty string');
    return value as string;
  };
  const list = (field: string): string[] => {
    const value = raw[field] ?? [];
    const items = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(items) || !items.every((i) => typeof i === 'string' && i.trim() !== ''))
      fail(field, 'must be a list of non-empty strings');
    return items as string[];
  };
  const repoText = text('repo', true) as string;
  const repo = isRemoteRepo(repoText) || isAbsolute(repoText) ? repoText : resolve(cwd, repoText);
  const profile = text('profile', false);
  if (profile !== undefined && !PROFILES.includes(profile as Profile))
    fail('profile', `must be ${PROFILES.join(', ')}`);
  const output = raw.output ?? 'branch';
  if (output !== 'branch' && output !== 'patch') fail('output', 'must be "branch" or "patch"');
  if (raw.push !== undefined && typeof raw.push !== 'boolean') fail('push', 'must be true or false');
  if (raw.push === true && !isRemoteRepo(repoText)) fail('push', 'needs a remote repo (a git URL)');
  if (raw.rerun !== undefined && typeof raw.rerun !== 'boolean') fail('rerun', 'must be true or false');
  const include = list('include');
  if (include.length > 0 && isRemoteRepo(repoText)) fail('include', INCLUDE_NEEDS_LOCAL_REPO);
  const priority = raw.priority;
  if (
    priority !== undefined &&
    !(Number.isInteger(priority) && (priority as number) >= 1 && (priority as number) <= 2_097_150)
  )
    fail('priority', 'must be a whole number from 1 (highest) to 2097150');
  const spec: Omit<JobSpec, 'id'> = {
    repo,
    ref: text('ref', false) ?? 'HEAD',
    prompt: text('prompt', true) as string,
    ...(text('model', false) ? { model: text('model', false) } : {}),
    ...(profile ? { profile: profile as Profile } : {}),
    budget: parseBudget(raw.budget, fail),
    setup: list('setup'),
    include,
    output: output as JobSpec['output'],
    push: raw.push === true,
    ...(priority !== undefined ? { priority: priority as number } : {}),
    ...(raw.rerun === true ? { rerun: true } : {}),
  };
  const id = text('id', false);
  if (id !== undefined && !ID_PATTERN.test(id))
    fail('id', 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  return { id: id ?? jobKey(spec), ...spec };
}

function parseBudget(value: unknown, fail: (field: string, problem: string) => never): JobBudget {
  if (value === undefined) return {};
  if (!isObject(value)) return fail('budget', 'must be an object: {turns, tokens, seconds, cost}');
  const budget: JobBudget = {};
  for (const [key, item] of Object.entries(value)) {
    if (!BUDGET_KEYS.includes(key))
      fail(`budget.${key}`, `is not a budget (known: ${BUDGET_KEYS.join(', ')})`);
    const whole = key === 'turns' || key === 'tokens';
    const ok =
      typeof item === 'number' && item > 0 && Number.isFinite(item) && (!whole || Number.isInteger(item));
    if (!ok)
      fail(`budget.${key}`, whole ? 'must be a whole number of at least 1' : 'must be a positive number');
    budget[key as keyof JobBudget] = item as number;
  }
  return budget;
}
