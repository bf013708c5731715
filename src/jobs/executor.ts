import { appendFileSync, mkdirSync, realpathSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { sessionsDir } from '../config/paths.js';
import { collectProcess } from '../util/collect_process.js';
import { RepositoryGit } from '../worktree/git.js';
import { copyIncluded, runSetupCommands, type SetupRunner } from '../worktree/project_files.js';
import { JobInfrastructureError } from './errors.js';
import { jobBranch, makeOutput } from './job_output.js';
import { INCLUDE_NEEDS_LOCAL_REPO, isRemoteRepo } from './job_spec.js';
import { addJobWorktree, type JobWorktreeRecord, recordRunGroup, removeJobWorktree } from './job_worktree.js';
import { type LatheRunResult, runLathe } from './lathe_run.js';
import { finishedBranch, type ResolvedRef, resolveRef, updateMirror } from './mirror.js';
import { jobFilesDir } from './paths.js';
import type { JobContext, JobExecutor, JobOutcome } from './types.js';

/** What every job of one worker shares. */
export interface ExecutorSettings {
  documentsRoot: string;
  /** The lathe command's script: jobs run `node <bin> -p …`. */
  latheBin: string;
  /** `workspace-write`: runs and setup commands in bubblewrap; `off` only when asked for explicitly. */
  sandbox: 'workspace-write' | 'off';
  /** Runs a setup command in the worktree (in the sandbox unless it is off). */
  runSetup: SetupRunner;
  /** The environment of the runs (model keys and endpoints). */
  env: NodeJS.ProcessEnv;
}

/** A setup command's output kept in a failed job's message. */
const SETUP_TAIL = 4_000;

/** The end states of a `lathe -p` result's subtype. */
function statusOf(run: LatheRunResult): JobOutcome['status'] {
  if (run.cancelled) return 'cancelled';
  if (run.budgetExhausted) return 'budget_exhausted';
  return run.exitCode === 0 ? 'completed' : 'failed';
}

/**
 * The executor of one job on this machine: the repository's mirror fetched, a detached worktree
 * at the job's commit, the included files copied and the setup commands run, then `lathe -p` in
 * it with the job's budget and the sandbox; then the output made (a branch or a patch; a partial
 * one when a budget ran out) and the worktree removed, whatever happened.
 */
export function jobExecutor(settings: ExecutorSettings): JobExecutor {
  return async (context) => {
    const filesDir = jobFilesDir(settings.documentsRoot, context.spec.id);
    mkdirSync(filesDir, { recursive: true });
    const logFile = join(filesDir, 'job.log');
    const log = (line: string) => {
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
      context.log(line);
    };
    const startedAt = new Date().toISOString();
    const known = { worker: context.worker, startedAt, files: filesDir };
    const end = (outcome: Omit<JobOutcome, 'worker' | 'startedAt' | 'files' | 'finishedAt'>): JobOutcome => {
      const done = { ...known, ...outcome, finishedAt: new Date().toISOString() };
      log(`ended ${done.status}${done.failure ? `(${done.failure.stage}): ${done.failure.message}` : ''}`);
      return done;
    };
    log(`started on ${context.worker}`);
    const { spec } = context;

    context.stage('mirror');
    const mirror = await updateMirror(settings.documentsRoot, spec.repo, context.submittedAt);
    const done = spec.rerun ? undefined : await finishedBranch(mirror, spec.id);
    if (done) return end(alreadyDone(spec.id, mirror, done));
    const base = await resolveRef(mirror, spec.ref);
    if (!base)
      return end({
        status: 'failed',
        failure: { stage: 'ref', message: `${spec.repo} has no branch, tag or commit "${spec.ref}"` },
      });
    if (context.signal.aborted) return end({ status: 'cancelled', baseSha: base.commit });

    context.stage('worktree');
    const worktree = await addJobWorktree(settings.documentsRoot, mirror, spec.id, base.commit);
    try {
      return await runInWorktree(settings, context, worktree, base, filesDir, log, end);
    } finally {
      await removeJobWorktree(worktree);
    }
  };
}

type End = (outcome: Omit<JobOutcome, 'worker' | 'startedAt' | 'files' | 'finishedAt'>) => JobOutcome;

/**
 * A job whose branch is in the mirror already (made here before a restart of the queue, or
 * pushed from another machine): done, with that branch as its output; `--rerun` runs it again.
 */
function alreadyDone(id: string, mirror: string, commit: string): Parameters<End>[0] {
  const branch = jobBranch(id, false);
  return {
    status: 'completed',
    text: `already done: ${branch} is in the mirror (submit with --rerun to run it again)`,
    output: { kind: 'branch', branch, repository: mirror, commit },
  };
}

async function runInWorktree(
  settings: ExecutorSettings,
  context: JobContext,
  worktree: JobWorktreeRecord,
  base: ResolvedRef,
  filesDir: string,
  log: (line: string) => void,
  end: End,
): Promise<JobOutcome> {
  const { spec } = context;
  const dir = worktree.dir;
  const baseSha = base.commit;
  const prepared = await prepareWorktree(settings, context, dir, baseSha, log, end);
  if ('ended' in prepared) return prepared.ended;
  const { included } = prepared;
  if (context.signal.aborted) return end({ status: 'cancelled', baseSha });

  context.stage('run');
  const run = await runLathe({
    bin: settings.latheBin,
    dir,
    prompt: spec.prompt,
    model: spec.model,
    profile: spec.profile,
    budget: spec.budget,
    sandbox: settings.sandbox,
    env: { ...settings.env, LATHE_HOME: settings.documentsRoot },
    filesDir,
    signal: context.signal,
    onStart: (pid) => void recordRunGroup(worktree, pid),
    onSpend: context.spent,
  });
  const status = statusOf(run);
  const collected = await collectRun(settings.documentsRoot, dir, filesDir, baseSha, run);
  if (status === 'cancelled') return end({ status, ...collected });

  context.stage('output');
  const { text } = collected;
  try {
    const output = await makeOutput({
      spec,
      dir,
      mirror: worktree.mirror,
      base,
      included,
      partial: status !== 'completed',
      filesDir,
      summary: (text ?? '').slice(0, 2_000),
    });
    if (output.kind !== 'none') log(`output: ${output.kind === 'branch' ? output.branch : output.path}`);
    if (status === 'failed')
      return end({
        status,
        ...collected,
        output,
        failure: { stage: 'run', message: text || `lathe exited with code ${run.exitCode}` },
      });
    return end({ status, ...collected, output });
  } catch (error) {
    return end({
      status: 'failed',
      ...collected,
      failure: { stage: 'output', message: (error as Error).message },
    });
  }
}

/**
 * Copies the job's included files into the worktree and runs its setup commands; the files
 * copied, or the job's end when either failed.
 */
async function prepareWorktree(
  settings: ExecutorSettings,
  context: JobContext,
  dir: string,
  baseSha: string,
  log: (line: string) => void,
  end: End,
): Promise<{ included: string[] } | { ended: JobOutcome }> {
  const { spec } = context;
  let included: string[] = [];
  if (spec.include.length > 0) {
    // Refused at submit; a job queued before that check still fails closed here.
    if (isRemoteRepo(spec.repo))
      return {
        ended: end({
          status: 'failed',
          baseSha,
          failure: { stage: 'worktree', message: `"include" ${INCLUDE_NEEDS_LOCAL_REPO}` },
        }),
      };
    included = await RepositoryGit.open(spec.repo)
      .then((git) => copyIncluded(git, spec.repo, dir, spec.include))
      .catch((error: Error) => {
        throw new JobInfrastructureError('worktree', `cannot copy the included files: ${error.message}`);
      });
    log(`copied: ${included.join(', ') || 'nothing matched'}`);
  }
  if (spec.setup.length > 0) {
    context.stage('setup');
    try {
      await runSetupCommands(spec.setup, dir, settings.runSetup, 'the job');
      log(`setup ran: ${spec.setup.join('; ')}`);
    } catch (error) {
      return {
        ended: end({
          status: 'failed',
          baseSha,
          failure: { stage: 'setup', message: (error as Error).message.slice(-SETUP_TAIL) },
        }),
      };
    }
  }
  return { included };
}

/** What a finished run tells the job's outcome; its session log is copied into the job's files. */
async function collectRun(
  documentsRoot: string,
  dir: string,
  filesDir: string,
  baseSha: string,
  run: LatheRunResult,
) {
  const result = run.result ?? {};
  const sessionId = run.sessionId;
  if (sessionId) await copySessionLog(documentsRoot, dir, sessionId, filesDir);
  const text = typeof result.result === 'string' ? result.result : run.stderrTail.split('\n').at(-1);
  return {
    baseSha,
    text,
    subtype: result.outcome as string | undefined,
    turns: result.num_turns as number | undefined,
    usage: run.usage,
    costUsd: (result.total_cost_usd as number | null | undefined) ?? run.costUsd ?? null,
    ...(sessionId ? { sessionId } : {}),
    ...(run.budgetExhausted ? { budgetExhausted: run.budgetExhausted } : {}),
  };
}

/** Copies the run's session log (written under the worktree's own sessions folder) into the job's files. */
async function copySessionLog(
  documentsRoot: string,
  dir: string,
  sessionId: string,
  filesDir: string,
): Promise<void> {
  const from = join(sessionsDir(documentsRoot, realpathSync(dir)), `${sessionId}.jsonl`);
  await fs.copyFile(from, join(filesDir, 'session.jsonl')).catch(() => undefined);
}

/** A setup runner without a sandbox, for workers started with `--sandbox off`. */
export const bareSetup: SetupRunner = async (command, dir) => {
  const run = await collectProcess(['bash', '-c', command], { cwd: dir });
  return { exitCode: run.code, output: `${run.stdout}${run.stderr}` };
};
