import { dirname, join } from 'node:path';
import type { NamedPath } from './shell/arguments.js';

/** A path a command names, with its targets' real paths (symlinks followed). */
interface PlacedPath {
  path: NamedPath;
  targets: ReadonlyArray<{ real: string }>;
}

export interface WorkflowScriptPlace {
  /** The script's real path. */
  real: string;
  workspaceReal: string;
  /** Whether the workspace is trusted. */
  trusted: boolean;
}

/**
 * Running a workflow script of a trusted workspace is not a change to its `.agents/` settings:
 * the one word that names the script (`node .agents/workflows/release.mjs`) is left out of the
 * protected-path check. Only that word, only for a script whose real path lies directly in the
 * workspace's `.agents/workflows/`, and only when the workspace is trusted; arguments naming
 * `.agents/` still ask, and the sandbox keeps the folder read-only for the script.
 */
export function workflowScriptWord<T extends PlacedPath>(
  named: readonly T[],
  script: WorkflowScriptPlace,
): T | undefined {
  if (!script.trusted) return undefined;
  if (dirname(script.real) !== join(script.workspaceReal, '.agents', 'workflows')) return undefined;
  return named.find(
    (n) =>
      n.path.subcommand === 0 &&
      !n.path.unknown &&
      !n.path.partial &&
      n.targets.length > 0 &&
      n.targets.every((target) => target.real === script.real),
  );
}
