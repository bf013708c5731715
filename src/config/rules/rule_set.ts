import { basename, extname, isAbsolute, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { leavesFolder } from '../../util/inside_folder.js';
import { discoverRules, type RuleFileCache, type RulePlaces } from './discover.js';
import type { Rule, RuleState, RuleStatus, SessionRules } from './types.js';

/**
 * A session's rules: the files found (read again at each prompt, so a rule written meanwhile
 * joins), the ones settings turn off (`rules.disabled`), and the files the session has read or
 * changed, which make conditional rules join. One set serves the user's agent and its children.
 */
export class RuleSet implements SessionRules {
  private rules: Rule[] = [];
  private problems: string[] = [];
  /** Files read or changed, relative to the workspace, in the order first seen. */
  private readonly seen = new Set<string>();
  /** Conditional rule (by path) → the first seen file that matched it. */
  private readonly matched = new Map<string, string>();
  private readonly matchers = new Map<string, (file: string) => boolean>();
  private readonly files: RuleFileCache = new Map();

  constructor(
    private readonly places: RulePlaces,
    /** `rules.disabled` from every settings file: rule names, file names or file names without `.md`. */
    private readonly disabled: readonly string[] = [],
  ) {
    this.refresh();
  }

  /** Problems with rule files and with `rules.disabled` entries that name no rule. */
  get warnings(): readonly string[] {
    const unknown = this.disabled.filter((entry) => !this.rules.some((rule) => namedBy(rule, entry)));
    return [
      ...this.problems,
      ...unknown.map((entry) => `rules.disabled: "${entry}" names no rule here (see /rules)`),
    ];
  }

  refresh(): void {
    const found = discoverRules(this.places, this.files);
    this.rules = found.rules;
    this.problems = found.warnings;
    // A rule's globs may have changed: its match is looked for again among the files seen.
    this.matched.clear();
    for (const file of this.seen) this.match(file);
  }

  /**
   * The session read or changed `path` (absolute, or relative to `root`: the folder it works in,
   * the workspace or a worktree of it); files outside `root` match no rule.
   */
  touch(path: string, root: string): void {
    const normal = (isAbsolute(path) ? relative(root, path) : path).split(sep).join('/');
    if (normal === '' || leavesFolder(normal)) return;
    if (this.seen.has(normal)) return;
    this.seen.add(normal);
    this.match(normal);
  }

  active(): readonly Rule[] {
    return this.statuses()
      .filter((status) => status.active)
      .map((status) => status.rule);
  }

  /** Every rule found, with why it is or is not in the system prompt now (`/rules`). */
  statuses(): RuleStatus[] {
    return this.rules.map((rule) => {
      const state = this.stateOf(rule);
      return { rule, state, active: state.kind === 'always' || state.kind === 'matched' };
    });
  }

  private stateOf(rule: Rule): RuleState {
    if (this.disabled.some((entry) => namedBy(rule, entry))) return { kind: 'disabled' };
    if (rule.sameAs) return { kind: 'duplicate', of: rule.sameAs };
    if (!rule.paths) return { kind: 'always' };
    const file = this.matched.get(rule.path);
    return file ? { kind: 'matched', file } : { kind: 'waiting', globs: rule.paths };
  }

  private match(file: string): void {
    for (const rule of this.rules) {
      if (!rule.paths || this.matched.has(rule.path)) continue;
      if (this.matcherOf(rule.paths)(file)) this.matched.set(rule.path, file);
    }
  }

  /** The compiled globs of a rule, kept across refreshes (by the globs themselves). */
  private matcherOf(globs: string[]): (file: string) => boolean {
    const key = globs.join('\n');
    let matcher = this.matchers.get(key);
    if (!matcher) {
      // A glob without a slash (`*.py`) matches a file's name in any folder, as in .gitignore.
      matcher = picomatch(globs, { dot: true, basename: true });
      this.matchers.set(key, matcher);
    }
    return matcher;
  }
}

/** Whether a `rules.disabled` entry names the rule: its name, its file name, or that without `.md`. */
function namedBy(rule: Rule, entry: string): boolean {
  const file = basename(rule.path);
  return entry === rule.name || entry === file || entry === basename(file, extname(file));
}

/** One line for `/rules` and `lathe rules list`: why a rule is in the prompt, or why not. */
export function describeRuleState(state: RuleState): string {
  switch (state.kind) {
    case 'always':
      return 'always';
    case 'matched':
      return `matched ${state.file}`;
    case 'waiting':
      return `waiting for ${state.globs.join(', ')}`;
    case 'disabled':
      return 'disabled in settings (rules.disabled)';
    case 'duplicate':
      return `same as ${state.of}, which is already in the prompt`;
  }
}
