// The snapshot thread: takes the snapshots of one workspace's whole tree, off the main thread,
// one request at a time, and keeps what it learnt of the files between them.
import { parentPort, workerData } from 'node:worker_threads';
import { ShadowGitError } from './shadow_repo.js';
import { type SnapshotRequest, type SnapshotSetup, TreeSnapshotter } from './tree_snapshotter.js';
import { WalkError } from './walk.js';

const port = parentPort;
if (!port) throw new Error('the snapshot thread runs as a worker thread');
const snapshotter = new TreeSnapshotter(workerData as SnapshotSetup);
let turn: Promise<void> = Promise.resolve();
/** Snapshots asked and not yet answered: the work after one gives way to them. */
let asked = 0;

port.on('message', ({ id, request }: { id: number; request: SnapshotRequest }) => {
  asked++;
  turn = turn.then(async () => {
    try {
      port.postMessage({ id, answer: await snapshotter.snapshot(request) });
    } catch (error) {
      const kind = error instanceof WalkError ? 'walk' : error instanceof ShadowGitError ? 'git' : 'other';
      port.postMessage({ id, error: { kind, message: (error as Error)?.message ?? String(error) } });
    } finally {
      asked--;
    }
    // After the answer, work that gives way to a snapshot asked meanwhile (and never fails one).
    await snapshotter.settle(() => asked > 0).catch(() => {});
  });
});
