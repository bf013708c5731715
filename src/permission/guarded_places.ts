import { join, sep } from 'node:path';
import type { GuardedPlaces } from './linked_names.js';
import { protectedPathReasons, shellStartUpFiles } from './paths.js';
import { patternStarts } from './pattern_starts.js';
import { pathPatternMatcher } from './rules.js';
import { gitLayout } from './sandbox/git_layout.js';

/**
 * Where the files that path deny `patterns` name can be: for relative patterns the workspace from
 * their literal base folder, for absolute ones the folder they start from (paths real).
 */
export function deniedPlaces(workspace: string, patterns: readonly string[]): GuardedPlaces {
  const starts = patternStarts(patterns, workspace);
  const matchers = patterns.map(pathPatternMatcher);
  const prefix = workspace + sep;
  return {
    key: ['denied', workspace, ...patterns].join('\n'),
    folders: [...starts.folders.keys()],
    files: starts.files,
    guarded: (path) => {
      // Walked paths are real and normalised: the workspace is their prefix.
      const rel = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
      return matchers.some((matches) => matches(path, rel));
    },
  };
}

/**
 * Where protected files can be: the workspace (any `.git`, `.agents/`, `.mcp.json`), the git
 * folders a worktree's `.git` file points to, lathe's settings and the home folder's shell
 * start-up files (paths real).
 */
export function protectedPlaces(workspace: string, documentsRoot: string): GuardedPlaces {
  const git = gitLayout(workspace);
  const reason = protectedPathReasons(workspace, documentsRoot);
  return {
    key: ['protected', workspace, documentsRoot].join('\n'),
    folders: [workspace, join(documentsRoot, 'settings'), ...(git ? [git.gitDir, git.commonDir] : [])],
    files: shellStartUpFiles(),
    guarded: (path) => reason(path) !== undefined,
  };
}
