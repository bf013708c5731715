import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectProcess } from '../util/collect_process.js';
import { safeGitArgs, safeGitEnv } from '../util/safe_git.js';

/** The folder of every workspace's shadow repository: `$LATHE_HOME/checkpoints`. */
export function checkpointsFolder(documentsRoot: string): string {
  return join(documentsRoot, 'checkpoints');
}

/** A workspace's shadow repository: `$LATHE_HOME/checkpoints/<hash of its path>.git`. */
export function shadowGitDir(documentsRoot: string, workspace: string): string {
  const hash = createHash('sha256').update(workspace).digest('hex').slice(0, 16);
  return join(checkpointsFolder(documentsRoot), `${hash}.git`);
}

/**
 * The shadow repository's configuration, written once at its creation; nothing else writes it.
 * The user's global and system configuration are never read (autocrlf or a filter there would
 * change the bytes kept), reflogs would keep pruned checkpoints alive, and gc runs when lathe says.
 * Index version 4 (paths prefix-compressed) is a third the size: faster to read and write.
 */
const CONFIG = `[core]
\trepositoryformatversion = 0
\tbare = false
\tfilemode = true
\tsymlinks = true
\tignorecase = false
\tautocrlf = false
\tsafecrlf = false
\tquotepath = false
\tfsmonitor = false
\tuntrackedCache = false
\tlogAllRefUpdates = false
\thooksPath = /dev/null
[index]
\tversion = 4
[gc]
\tauto = 0
`;

/** Attributes over any `.gitattributes` of the workspace: bytes go in and come out as they are. */
const ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding\n';

export class ShadowGitError extends Error {}

/**
 * How far glibc's malloc lets free memory at the top of the heap grow before it gives it back.
 * `git fast-import` allocates and frees a compression buffer of a few hundred KB for each blob;
 * at the default (128 KB) each one moves the heap's end up and down again, and where that system
 * call is slow (a sandboxed kernel) the first snapshot of 100,000 files spent minutes in it.
 * Other C libraries ignore the variable.
 */
const MALLOC_TRIM_THRESHOLD = String(64 * 1024 * 1024);

/**
 * The environment of the shadow repository's git processes: its own folders and identity, no
 * configuration but its own, and no GIT_* of the caller's (a hook's GIT_DIR, GIT_OBJECT_DIRECTORY
 * would redirect these calls).
 */
export function shadowGitEnv(
  gitDir: string,
  workTree: string,
  indexFile: string,
  baseEnv: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(baseEnv)) if (!key.startsWith('GIT_')) env[key] = value;
  return safeGitEnv({
    MALLOC_TRIM_THRESHOLD_: MALLOC_TRIM_THRESHOLD,
    ...env,
    GIT_DIR: gitDir,
    GIT_WORK_TREE: workTree,
    GIT_INDEX_FILE: indexFile,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'lathe',
    GIT_AUTHOR_EMAIL: 'checkpoints@lathe.invalid',
    GIT_COMMITTER_NAME: 'lathe',
    GIT_COMMITTER_EMAIL: 'checkpoints@lathe.invalid',
  });
}

/** What one git command in the shadow repository printed. */
export interface ShadowRun {
  stdout: string;
  stderr: string;
}

/**
 * A shadow git repository driven with GIT_DIR, GIT_WORK_TREE and its own GIT_INDEX_FILE: the
 * workspace is its work tree, but the user's repository (HEAD, index, refs, stash, nested
 * `.git` folders) is never read or written. Every call runs through `safeGitArgs`: no hooks,
 * no fsmonitor, no pager.
 */
export class ShadowRepo {
  readonly indexFile: string;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    baseEnv: NodeJS.ProcessEnv = process.env,
  ) {
    this.indexFile = join(gitDir, 'index');
    this.env = shadowGitEnv(gitDir, workTree, this.indexFile, baseEnv);
  }

  get exists(): boolean {
    return existsSync(join(this.gitDir, 'HEAD'));
  }

  /**
   * Makes the repository when there is none: built in a temporary folder and renamed into
   * place, so a process killed meanwhile leaves no half-made repository behind. The files are
   * those `git init --bare --template=` writes, written here: no git process for a new workspace.
   * A few small synchronous calls, so a checkpoint taken while the process is busy is not held
   * back a turn of the event loop for each.
   */
  ensure(): void {
    if (this.exists) return;
    const temp = `${this.gitDir}.${process.pid}.tmp`;
    rmSync(temp, { recursive: true, force: true });
    for (const folder of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info'])
      mkdirSync(join(temp, folder), { recursive: true });
    writeFileSync(join(temp, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(temp, 'config'), CONFIG);
    writeFileSync(join(temp, 'info', 'attributes'), ATTRIBUTES);
    writeFileSync(join(temp, 'lathe-workspace'), `${this.workTree}\n`);
    renameSync(temp, this.gitDir);
  }

  /** Runs git here; a failure throws with git's own words. */
  async git(
    args: readonly string[],
    options: { input?: string; timeoutMs?: number; indexFile?: string } = {},
  ): Promise<ShadowRun> {
    const run = await collectProcess(['git', ...safeGitArgs(args)], {
      cwd: this.workTree,
      env: options.indexFile ? { ...this.env, GIT_INDEX_FILE: options.indexFile } : this.env,
      input: options.input,
      timeoutMs: options.timeoutMs ?? 600_000,
    });
    if (run.error) throw new ShadowGitError(`git ${args[0]} could not run: ${run.error.message}`);
    if (run.code !== 0) {
      const said = (run.stderr || run.stdout).trim().split('\n').slice(-3).join(' / ');
      throw new ShadowGitError(`git ${args[0]} failed (${run.code ?? 'stopped'}): ${said}`);
    }
    return { stdout: run.stdout, stderr: run.stderr };
  }

  /**
   * Runs git here with its input written by `produce`, piece by piece as git takes it (the input
   * may be larger than memory should hold); `config` goes before the subcommand. Resolves to
   * what git printed; a failure throws with git's own words.
   */
  gitStream(
    args: readonly string[],
    config: readonly string[],
    produce: (write: (chunk: string | Buffer) => Promise<void>) => Promise<void>,
  ): Promise<string> {
    const child = spawn('git', [...config, ...safeGitArgs(args)], {
      cwd: this.workTree,
      env: this.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A git that stopped early closes the pipe: its exit status says why.
    child.stdin.on('error', () => {});
    const ended = new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
    let closed = false;
    child.on('close', () => {
      closed = true;
    });
    const write = (chunk: string | Buffer): Promise<void> =>
      closed || child.stdin.write(chunk)
        ? Promise.resolve()
        : new Promise((resolve) => {
            const done = () => {
              child.stdin.off('drain', done);
              child.off('close', done);
              resolve();
            };
            child.stdin.on('drain', done);
            child.on('close', done);
          });
    const fed = produce(write).then(
      () => child.stdin.end(),
      (error: unknown) => {
        child.kill('SIGKILL');
        throw error;
      },
    );
    return Promise.all([fed, ended]).then(
      ([, code]) => {
        if (code === 0) return stdout;
        const said = (stderr || stdout).trim().split('\n').slice(-3).join(' / ');
        throw new ShadowGitError(`git ${args[0]} failed (${code ?? 'stopped'}): ${said}`);
      },
      (error: Error) => {
        throw error instanceof ShadowGitError
          ? error
          : new ShadowGitError(`git ${args[0]} could not run: ${error.message}`);
      },
    );
  }

  /**
   * Removes what a process killed mid-write leaves (an `index.lock`, a restore's index): only ever called by
   * the holder of the repository's lock, so no live process of lathe's owns it.
   */
  clearStaleLocks(): void {
    rmSync(join(this.gitDir, 'index.lock'), { force: true });
    for (const name of readdirSync(this.gitDir))
      if (name.startsWith('restore-index.')) rmSync(join(this.gitDir, name), { force: true });
    // gc may run a while; its packed-refs lock is stale only when old.
    const packed = join(this.gitDir, 'packed-refs.lock');
    const stat = statSync(packed, { throwIfNoEntry: false });
    if (stat && Date.now() - stat.mtimeMs > 10 * 60_000) rmSync(packed, { force: true });
  }
}
