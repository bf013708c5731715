import { documentsRoot } from '../../config/paths.js';
import {
  listWorktrees,
  prunedLine,
  pruneFailureLine,
  pruneWorktrees,
  type WorktreeListing,
} from '../../worktree/index.js';

function changesText(changes: WorktreeListing['changes']): string {
  if (!changes) return 'changes unknown';
  const parts: string[] = [];
  if (changes.files > 0) parts.push(`${changes.files} file${changes.files === 1 ? '' : 's'} changed`);
  if (changes.commits > 0) parts.push(`${changes.commits} commit${changes.commits === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(', ') : 'no changes';
}

function listingLine(w: WorktreeListing): string {
  const owner = w.owner ? `pid ${w.owner.pid}` : 'no owner';
  return `${w.name}  ${w.branch}  ${w.state} (${owner})  ${changesText(w.changes)}\n  ${w.dir}  from ${w.repoRoot}`;
}

/** `lathe worktrees list [--json]` and `lathe worktrees prune`. */
export async function worktreesCommand(sub: 'list' | 'prune', opts: { json?: boolean }): Promise<number> {
  const root = documentsRoot();
  if (sub === 'list') {
    const listed = await listWorktrees({ documentsRoot: root });
    if (opts.json) process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    else if (listed.length === 0) process.stdout.write('No worktrees.\n');
    else process.stdout.write(`${listed.map(listingLine).join('\n')}\n`);
    return 0;
  }
  const { pruned, failed } = await pruneWorktrees({ documentsRoot: root });
  if (opts.json) process.stdout.write(`${JSON.stringify({ pruned, failed }, null, 2)}\n`);
  else if (pruned.length === 0 && failed.length === 0) process.stdout.write('No leftover worktrees.\n');
  else for (const p of pruned) process.stdout.write(`${prunedLine(p)}\n`);
  for (const f of failed) process.stderr.write(`lathe: ${pruneFailureLine(f)}\n`);
  return failed.length > 0 ? 1 : 0;
}
