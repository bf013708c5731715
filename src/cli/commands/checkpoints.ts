import { type Checkpoint, checkpointsFolder, folderBytes } from '../../checkpoints/index.js';
import { CheckpointService } from '../../runtime/checkpoint_service.js';
import { resolveConfiguration } from '../../runtime/configuration.js';

export type CheckpointsSub = 'list' | 'restore' | 'du' | 'prune';

export interface CheckpointsOptions {
  cwd?: string;
  json?: boolean;
  /** `prune --all`: every checkpoint of the workspace. */
  all?: boolean;
}

const out = (line: string) => process.stdout.write(`${line}\n`);

/** `12.3 MB`. */
export function showBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A checkpoint on one line: id, local time, kind, what it was taken before, files left out. */
export function checkpointLine(checkpoint: Checkpoint): string {
  const time = new Date(checkpoint.at);
  const pad = (n: number) => String(n).padStart(2, '0');
  const when = `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())} ${pad(time.getHours())}:${pad(time.getMinutes())}:${pad(time.getSeconds())}`;
  const skipped = checkpoint.skippedCount ? `  (${checkpoint.skippedCount} file(s) left out)` : '';
  return `${checkpoint.id}  ${when}  ${checkpoint.kind.padEnd(7)}  ${checkpoint.label}${skipped}`;
}

/** `lathe checkpoints list|restore ID|du|prune` for the workspace of `--cwd` (default: here). */
export async function checkpointsCommand(
  sub: CheckpointsSub,
  id: string | undefined,
  opts: CheckpointsOptions,
): Promise<number> {
  const configuration = resolveConfiguration({ cwd: opts.cwd });
  const { documentsRoot, workspace, settings, env } = configuration;
  const service = new CheckpointService({
    settings: { ...settings.checkpoints, enabled: true },
    documentsRoot,
    sessionDir: documentsRoot,
    sessionId: 'command-line',
    env,
    warnings: configuration.warnings,
  });
  const store = service.store(workspace);
  if (!store) {
    process.stderr.write(`lathe: checkpoints are not available: ${service.off}\n`);
    return 1;
  }
  if (sub === 'list') {
    const all = (await store.list()).reverse();
    if (opts.json) out(JSON.stringify(all, null, 2));
    else if (all.length === 0) out(`No checkpoints of ${workspace} yet.`);
    else for (const checkpoint of all) out(checkpointLine(checkpoint));
    return 0;
  }
  if (sub === 'restore') {
    const target = await store.find(id ?? '');
    const { before, change } = await store.restore(target, 'command-line');
    out(
      `Restored ${target.id} (${target.label}): ${change.written} file(s) written back, ${change.removed} removed.`,
    );
    if (change.leftAlone.length > 0)
      out(`Left as they are (too large or unreadable now): ${change.leftAlone.join(', ')}`);
    out(`The files as they were before are checkpoint ${before.id}: lathe checkpoints restore ${before.id}`);
    return 0;
  }
  if (sub === 'du') {
    const own = await store.diskUsage();
    const count = (await store.list()).length;
    const total = await folderBytes(checkpointsFolder(documentsRoot));
    if (opts.json)
      out(JSON.stringify({ workspace, checkpoints: count, bytes: own, allWorkspacesBytes: total }));
    else {
      out(`${showBytes(own)}  ${count} checkpoint(s) of ${workspace} (${store.repo.gitDir})`);
      out(`${showBytes(total)}  all workspaces (${checkpointsFolder(documentsRoot)})`);
    }
    return 0;
  }
  const before = await store.diskUsage();
  const { removed } = await store.prune({ all: opts.all });
  const after = opts.all ? 0 : await store.diskUsage();
  out(`Removed ${removed} checkpoint(s); ${showBytes(before)} → ${showBytes(after)}.`);
  return 0;
}
