import picomatch from 'picomatch';

/**
 * A glob of `glob` and `search_files`: which paths (relative to the folder searched, with `/`)
 * it matches, and how git and ripgrep can be told to narrow their walk to a superset of those
 * paths. The narrowing only ever keeps too much: `matches` decides.
 */
export interface PathPattern {
  matches: (relative: string) => boolean;
  /** git pathspecs whose union holds every match; undefined when none can be said safely. */
  gitPathspecs?: string[];
  /** A file-name glob every match's name fits (ripgrep `--type-add`); undefined when none helps. */
  nameGlob?: string;
}

/** Characters whose glob meaning git's pathspecs share with picomatch (no classes, braces, extglobs). */
const PATHSPEC_SAFE = /^[\w.\-/*? @#%+=,~]+$/;
/** The same, with braces, for a ripgrep file type (which cannot hold ':'). */
const NAME_GLOB_SAFE = /^[\w.\-*? @#%+=,~{}]+$/;

export function pathPattern(raw: string): PathPattern {
  const pattern = raw.replace(/^(\.\/)+/, '');
  const byName = !pattern.includes('/');
  // The expression itself, not picomatch's matcher: that one builds a result object per path.
  const re = picomatch.makeRe(pattern, { dot: true });
  const matches = byName
    ? (path: string) => re.test(path.slice(path.lastIndexOf('/') + 1))
    : (path: string) => re.test(path);
  const lastSegment = pattern.slice(pattern.lastIndexOf('/') + 1);
  const nameGlob =
    NAME_GLOB_SAFE.test(lastSegment) && !lastSegment.includes('**') && lastSegment !== '*'
      ? lastSegment
      : undefined;
  return { matches, nameGlob, gitPathspecs: gitPathspecs(pattern, byName) };
}

function gitPathspecs(pattern: string, byName: boolean): string[] | undefined {
  if (!PATHSPEC_SAFE.test(pattern) || pattern.startsWith('/') || pattern.split('/').includes('..')) {
    return undefined;
  }
  // Without magic a pathspec's `*` also matches `/`: the name at the top, and below any folder.
  if (byName) return [pattern, `*/${pattern}`];
  return [`:(glob)${pattern}`];
}
