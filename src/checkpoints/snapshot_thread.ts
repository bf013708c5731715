import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { lazyBuiltin } from '../util/lazy_builtin.js';
import { removeStatIndex, statIndexFile } from './indexed_stats.js';
import { ShadowGitError } from './shadow_repo.js';
import type { SnapshotAnswer, SnapshotRequest, SnapshotSetup } from './tree_snapshotter.js';
import { WalkError } from './walk.js';

interface Waiting {
  resolve(answer: SnapshotAnswer): void;
  reject(error: Error): void;
}

type Reply =
  | { id: number; answer: SnapshotAnswer }
  | { id: number; error: { kind: string; message: string } };

/**
 * The worker thread that takes a workspace's tree snapshots (src/checkpoints/snapshot_worker.ts):
 * started at the first snapshot, so a session that changes no file through a command never
 * starts it; unreferenced while it has nothing to do, so it never keeps lathe up. A thread that
 * dies fails the snapshots it had, and the next one starts a new thread.
 */
export class SnapshotThread {
  private worker?: Worker;
  /** The running thread's index of the files' stats, removed when it ends. */
  private indexFile?: string;
  private next = 0;
  private readonly waiting = new Map<number, Waiting>();

  constructor(private readonly setup: SnapshotSetup) {}

  /** Whether the thread is running (it is started by the first snapshot). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  snapshot(request: SnapshotRequest): Promise<SnapshotAnswer> {
    const worker = this.worker ?? this.start();
    const id = this.next++;
    // Held while a snapshot is out: an unreferenced thread would let the process end meanwhile.
    worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, request });
    });
  }

  /** Ends the thread; the next snapshot starts a new one (knowing the files afresh). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
    if (this.indexFile) removeStatIndex(this.indexFile);
    this.indexFile = undefined;
  }

  private start(): Worker {
    if (this.indexFile) removeStatIndex(this.indexFile);
    this.indexFile = statIndexFile(this.setup.gitDir);
    const worker = startWorker({ ...this.setup, indexFile: this.indexFile });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if ('answer' in reply) waiting?.resolve(reply.answer);
      else waiting?.reject(errorOf(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', (error) => fail(new Error(`the snapshot thread failed: ${error.message}`)));
    worker.on('exit', () => fail(new Error('the snapshot thread ended')));
    this.worker = worker;
    return worker;
  }
}

function errorOf({ kind, message }: { kind: string; message: string }): Error {
  if (kind === 'walk') return new WalkError(message);
  if (kind === 'git') return new ShadowGitError(message);
  return new Error(message);
}

/**
 * The thread, from the built module beside this one; run from TypeScript source (the tests), the
 * thread first registers tsx, which loads the source the same way.
 */
function startWorker(setup: SnapshotSetup): Worker {
  const { Worker } = lazyBuiltin('node:worker_threads');
  const built = new URL('./snapshot_worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return new Worker(built, { workerData: setup });
  const source = new URL('./snapshot_worker.ts', import.meta.url).href;
  // tsx's ESM entry, as its package names it (require.resolve would give the CommonJS one).
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const entry = (require(manifest) as { exports: Record<string, { import: { default: string } }> }).exports[
    './esm/api'
  ].import.default;
  const tsx = pathToFileURL(join(dirname(manifest), entry)).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData: setup });
}
