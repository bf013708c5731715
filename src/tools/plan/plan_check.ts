import { basename, isAbsolute, relative } from 'node:path';
import type { WorkEntry } from '../../tool/work_record.js';
import type { PlanStep } from './plan_steps.js';

export type StepStatus = 'done' | 'not done' | 'changed' | 'unverified';

export interface StepVerdict {
  n: number;
  title: string;
  status: StepStatus;
  evidence: string[];
}

/** What the session did after the plan was approved. */
export interface SessionWork {
  /** Changed files (workspace-relative) and the tools that changed them. */
  files: Map<string, Set<string>>;
  /** Commands run, in order, with their exit codes (undefined: still running in the background). */
  commands: Array<{ command: string; exitCode?: number | null }>;
  /** Files git reports changed in the tree and no tool call changed (a command may have). */
  treeChanges: string[];
}

const TEST_COMMAND = /\b(test|tests|vitest|jest|pytest|mocha|ctest|rspec|phpunit|go test|cargo test)\b/;

/** The record's work after the last approved plan, paths relative to the workspace. */
export function workAfterPlan(entries: WorkEntry[], workspace: string, treeChanges: string[]): SessionWork {
  const files = new Map<string, Set<string>>();
  const commands: SessionWork['commands'] = [];
  for (const entry of entries) {
    if (entry.type !== 'call' || !entry.ok) {
      if (entry.type === 'call' && entry.command !== undefined)
        commands.push({ command: entry.command, exitCode: entry.exitCode });
      continue;
    }
    for (const path of entry.paths ?? []) {
      const rel = isAbsolute(path) ? relative(workspace, path) : path;
      const tools = files.get(rel) ?? new Set<string>();
      tools.add(entry.tool);
      files.set(rel, tools);
    }
    if (entry.command !== undefined) commands.push({ command: entry.command, exitCode: entry.exitCode });
  }
  return { files, commands, treeChanges: treeChanges.filter((p) => !files.has(p)) };
}

/** Whether a changed file (workspace-relative) is the one a plan names. */
function samePath(changed: string, named: string): boolean {
  return (
    changed === named ||
    changed.endsWith(`/${named}`) ||
    (!named.includes('/') && basename(changed) === named)
  );
}

const exitText = (exitCode: number | null | undefined) =>
  exitCode === undefined
    ? 'still running or no exit code'
    : exitCode === null
      ? 'killed'
      : `exit ${exitCode}`;

type Finding = 'met' | 'failed' | 'missing';

function checkPath(named: string, work: SessionWork): { finding: Finding; line: string } {
  for (const [file, tools] of work.files)
    if (samePath(file, named))
      return { finding: 'met', line: `${file}: changed by ${[...tools].join(', ')}` };
  const byCommand = work.treeChanges.find((file) => samePath(file, named));
  if (byCommand)
    return { finding: 'met', line: `${byCommand}: changed in the tree (git status; by a command)` };
  return { finding: 'missing', line: `${named}: not changed` };
}

function checkCommand(named: string, work: SessionWork): { finding: Finding; line: string } {
  const runs = work.commands.filter((c) => c.command.includes(named));
  const last = runs.at(-1);
  if (!last) return { finding: 'missing', line: `\`${named}\`: not run` };
  const times = runs.length > 1 ? ` (${runs.length} runs, the last:)` : '';
  const line = `\`${named}\`: ran${times} ${exitText(last.exitCode)}`;
  return { finding: last.exitCode === 0 ? 'met' : 'failed', line };
}

function checkTests(work: SessionWork): { finding: Finding; line: string } {
  const runs = work.commands.filter((c) => TEST_COMMAND.test(c.command));
  const last = runs.at(-1);
  if (!last) return { finding: 'missing', line: 'tests: no test command was run' };
  return {
    finding: last.exitCode === 0 ? 'met' : 'failed',
    line: `tests: \`${last.command}\` ${exitText(last.exitCode)}`,
  };
}

/** Each step against the work: done (all it names happened), not done (none), changed (some, or differently). */
export function verifySteps(steps: PlanStep[], work: SessionWork): StepVerdict[] {
  return steps.map((step) => {
    const checks = [
      ...step.paths.map((p) => checkPath(p, work)),
      ...step.commands.map((c) => checkCommand(c, work)),
      ...(step.wantsTests && !step.commands.some((c) => TEST_COMMAND.test(c)) ? [checkTests(work)] : []),
    ];
    const evidence = checks.map((c) => c.line);
    let status: StepStatus;
    if (checks.length === 0) {
      status = 'unverified';
      evidence.push('names no file, command or test the record can show: check it by hand');
    } else if (checks.every((c) => c.finding === 'met')) status = 'done';
    else if (checks.every((c) => c.finding === 'missing')) status = 'not done';
    else status = 'changed';
    return { n: step.n, title: step.title, status, evidence };
  });
}

/** Files the session's calls changed that no step names (git's list may hold older changes: left out). */
export function unplannedFiles(steps: PlanStep[], work: SessionWork): string[] {
  const named = steps.flatMap((s) => s.paths);
  const changed = [...work.files.keys()];
  return changed.filter((file) => !named.some((n) => samePath(file, n)));
}
