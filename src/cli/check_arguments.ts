import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { ToolName } from '../config/builtin_tool_names.js';
import { KNOWN_FEATURES } from '../config/features.js';
import { APPROVAL_CATEGORIES } from '../config/types.js';
import { readAnswers } from '../sdk/user_side.js';
import { UsageError } from './errors.js';

/**
 * Checks of what was typed on the command line, before anything runs: each mistake is one line
 * naming the flag and what it wants (exit code 2), never a warning that makes the run go wrong.
 */

/** Commander's parser for a count: a whole number of 1 or more. */
export function positiveWholeNumber(flag: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()) || Number(value) < 1)
      throw new InvalidArgumentError(`${flag} wants a whole number of 1 or more, not "${value}"`);
    return Number(value);
  };
}

/** Commander's parser for an amount of money: a positive number of dollars. */
export function positiveDollars(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${flag} wants a positive number of dollars, not "${value}"`);
    return n;
  };
}

function checkFolder(flag: string, dir: string): void {
  let isFolder = false;
  try {
    isFolder = statSync(resolve(dir)).isDirectory();
  } catch {
    throw new UsageError(`${flag} ${dir}: no such folder`);
  }
  if (!isFolder) throw new UsageError(`${flag} ${dir}: not a folder`);
}

function checkReadableFile(flag: string, file: string): void {
  try {
    if (!statSync(file).isFile()) throw new UsageError(`${flag} ${file}: not a file`);
    accessSync(file, constants.R_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag} ${file}: ${code === 'ENOENT' ? 'no such file' : 'cannot be read'}`);
  }
}

function checkApprove(categories: string[]): void {
  for (const category of categories) {
    if (category !== 'all' && !(APPROVAL_CATEGORIES as readonly string[]).includes(category)) {
      throw new UsageError(
        `--approve ${category}: unknown approval category (use ${APPROVAL_CATEGORIES.join(', ')} or all)`,
      );
    }
  }
}

/** Features that switch a mode rather than tools of their own, and the tool each mode needs. */
const MODE_FEATURES: Record<string, ToolName> = { coordinator: 'use_subagent' };

/** A feature must be one lathe knows; the error lists those with tools behind them. */
async function checkFeatures(names: string[]): Promise<void> {
  if (names.length === 0) return;
  const { builtinTools } = await import('../tools/index.js');
  const tools = builtinTools();
  const withTools = new Set(tools.flatMap((tool) => tool.availability.feature ?? []));
  for (const [feature, needs] of Object.entries(MODE_FEATURES))
    if (tools.some((tool) => tool.name === needs)) withTools.add(feature);
  for (const name of names) {
    if (!(KNOWN_FEATURES as readonly string[]).includes(name))
      throw new UsageError(
        `--feature ${name}: unknown feature (features with tools: ${[...withTools].join(', ')})`,
      );
  }
}

/** `tool` or `tool(pattern)`, as in settings; MCP tools (`server__tool`) and globs are taken as written. */
async function checkRules(flag: string, rules: string[]): Promise<void> {
  if (rules.length === 0) return;
  const [{ parseRule }, { builtinTools }] = await Promise.all([
    import('../permission/rules.js'),
    import('../tools/index.js'),
  ]);
  const names = new Set(builtinTools().flatMap((tool) => [tool.name, ...tool.aliases]));
  for (const text of rules) {
    const rule = parseRule({ rule: text, action: 'allow', source: flag });
    if (typeof rule === 'string')
      throw new UsageError(
        `${flag} "${text}": not a rule; write tool or tool(pattern), e.g. "execute_command(npm test)"`,
      );
    if (!names.has(rule.tool) && !rule.tool.includes('*') && !rule.tool.includes('__'))
      throw new UsageError(`${flag} "${text}": no tool is named ${rule.tool} (see lathe tools)`);
  }
}

export interface CheckedOptions {
  cwd?: string;
  approve?: string[];
  feature?: string[];
  addDir?: string[];
  image?: string[];
  answers?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  jsonSchema?: string;
  fork?: string;
  resume?: string;
  continue?: boolean;
  /** false under `--no-session`. */
  session?: boolean;
}

/** `--fork` names the session it starts from and is a session kept; `--no-session` keeps none. */
function checkSessionChoice(opts: CheckedOptions): void {
  const other = opts.resume !== undefined ? '--resume' : opts.continue ? '--continue' : undefined;
  if (opts.fork !== undefined && other)
    throw new UsageError(`--fork and ${other} do not go together: --fork names the session it starts from`);
  if (opts.session !== false) return;
  if (opts.fork !== undefined)
    throw new UsageError('--fork and --no-session do not go together: a fork is a new session, kept');
  if (other)
    throw new UsageError(`--no-session and ${other} do not go together: a resumed session is written to`);
}

/** Throws a UsageError for the first bad argument among those a command was given. */
export async function checkArguments(opts: CheckedOptions): Promise<void> {
  if (opts.cwd !== undefined) checkFolder('--cwd', opts.cwd);
  checkSessionChoice(opts);
  for (const dir of opts.addDir ?? []) checkFolder('--add-dir', dir);
  checkApprove(opts.approve ?? []);
  for (const file of opts.image ?? []) checkReadableFile('--image', file);
  if (opts.jsonSchema !== undefined) checkReadableFile('--json-schema', opts.jsonSchema);
  if (opts.answers !== undefined) readAnswers(opts.answers);
  await checkFeatures(opts.feature ?? []);
  await checkRules('--allowed-tools', opts.allowedTools ?? []);
  await checkRules('--disallowed-tools', opts.disallowedTools ?? []);
}
