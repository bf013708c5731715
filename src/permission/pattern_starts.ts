import { isAbsolute, join, sep } from 'node:path';
import picomatch from 'picomatch';
import { expandHome } from './paths.js';
import { pathPatternMatcher } from './rules.js';

export type PathMatcher = ReturnType<typeof pathPatternMatcher>;

/** Where the files that path patterns name are found, as the permission engine matches them. */
export interface PatternStarts {
  /** Folders to walk, each with the patterns that may match below it. */
  folders: Map<string, PathMatcher[]>;
  /** Paths named outright (patterns with no glob). */
  files: string[];
}

/**
 * Relative patterns start in the workspace at their literal base folder (`secrets/*.key` at
 * `secrets/`; one that opens with a glob at the workspace), absolute and `~/…` ones at theirs;
 * never at `/`.
 */
export function patternStarts(patterns: readonly string[], workspaceReal: string): PatternStarts {
  const folders = new Map<string, PathMatcher[]>();
  const files: string[] = [];
  for (const pattern of patterns) {
    const expanded = expandHome(pattern);
    const { base, isGlob } = picomatch.scan(expanded);
    const start = isAbsolute(expanded) ? base : join(workspaceReal, base);
    if (start === '' || start === sep) continue;
    if (isGlob) folders.set(start, [...(folders.get(start) ?? []), pathPatternMatcher(pattern)]);
    else files.push(start);
  }
  return { folders, files };
}
