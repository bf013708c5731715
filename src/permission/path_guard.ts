import type { ApprovalCategory } from '../config/types.js';
import type { NamedPath } from './shell/arguments.js';
import type { PermissionDecision, PermissionRule, PermissionSubject } from './types.js';

/** A path a call touches, placed. */
export interface Target {
  absolute: string;
  real: string;
  relative?: string;
  /** Inside a folder added with `--add-dir`: not "outside" for the approval categories. */
  inExtraRoot?: boolean;
}

/** A path a shell command names, placed: it may resolve to several targets (after a `cd`). */
export interface NamedTarget {
  path: NamedPath;
  targets: Target[];
  /** Outside the workspace, or nothing is known of where it points. */
  outside: boolean;
}

/** What judging a path by its names needs from the engine. */
export interface PathGuard {
  /** The path deny rules of file tools, which hold for every tool and command. */
  rules: readonly PermissionRule[];
  /** What a rule guards: reading (and so every access) or writing. */
  access(rule: PermissionRule): 'read' | 'write' | undefined;
  /** Whether the rule's pattern names the target (as written or as resolved). */
  matches(rule: PermissionRule, t: Target): boolean;
  /**
   * The target's other names (hard links) that the deny rules or protection guard; undefined when
   * not every place they could be was looked through.
   */
  links(t: Target, guarded: 'denied' | 'protected'): Target[] | undefined;
  /** Why a path is protected, if it is. */
  protectedReason(t: Target): string | undefined;
}

const describe = (rule: PermissionRule) =>
  rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;

/**
 * A path deny rule of a file tool guards the path for every tool and command: one on a reading
 * tool (`read_file(.env)`) against any access, since tools that change a file read it too; one on
 * an editing tool (`write_to_file(secrets/**)`) against writing. It guards the file under any of
 * its names: a hard link to a denied file is denied, and so is a linked file whose other names
 * could not all be looked for.
 */
export function pathDenial(
  guard: PathGuard,
  subject: PermissionSubject,
  targets: readonly Target[],
  named: readonly NamedTarget[],
): PermissionDecision | undefined {
  if (guard.rules.length === 0) return undefined;
  const judged: Array<{ t: Target; access: 'read' | 'write'; what: string }> = [];
  if (subject.kind === 'read' || subject.kind === 'edit') {
    const access = subject.kind === 'read' ? 'read' : 'write';
    for (const t of targets) judged.push({ t, access, what: t.absolute });
  }
  for (const n of named) {
    if (n.path.partial) continue;
    for (const t of n.targets) judged.push({ t, access: n.path.access, what: n.path.text });
  }
  for (const { t, access, what } of judged) {
    const decision = judgeTarget(guard, t, access, what);
    if (decision) return decision;
  }
  return undefined;
}

function judgeTarget(
  guard: PathGuard,
  t: Target,
  access: 'read' | 'write',
  what: string,
): PermissionDecision | undefined {
  const applying = guard.rules.filter((rule) => guard.access(rule) === 'read' || access === 'write');
  if (applying.length === 0) return undefined;
  const held = (rule: PermissionRule) =>
    `denied by rule ${describe(rule)} (${rule.source}), which holds for every tool and command`;
  const rule = applying.find((r) => guard.matches(r, t));
  if (rule) return { behavior: 'deny', reason: `${what} is ${held(rule)}` };
  const links = guard.links(t, 'denied');
  if (links === undefined) {
    return {
      behavior: 'deny',
      reason: `${what} has other names (hard links) and the deny rules name more files than lathe looks through to tell whether one of them is it; narrow the rules (a folder instead of a pattern that starts with **)`,
    };
  }
  for (const link of links) {
    const linked = applying.find((r) => guard.matches(r, link));
    if (linked)
      return {
        behavior: 'deny',
        reason: `${what} is a hard link to ${link.absolute}, which is ${held(linked)}`,
      };
  }
  return undefined;
}

/** The ask for the first written target that is protected under any of its names. */
export function protectedAsk(
  guard: PathGuard,
  written: readonly Target[],
  category: ApprovalCategory | undefined,
): PermissionDecision | undefined {
  const ask = (reason: string): PermissionDecision => ({
    behavior: 'ask',
    reason,
    category,
    hint: 'protected paths ask even under --yolo; only a person can approve this change',
    sticky: 'protected',
  });
  for (const t of written) {
    const reason = guard.protectedReason(t);
    if (reason) return ask(`${t.absolute} is ${reason} (protected: always asks)`);
  }
  for (const t of written) {
    const links = guard.links(t, 'protected');
    if (links === undefined) {
      return ask(
        `${t.absolute} has other names (hard links), and lathe could not look through every protected file`,
      );
    }
    for (const link of links) {
      const reason = guard.protectedReason(link);
      if (reason)
        return ask(
          `${t.absolute} is a hard link to ${link.absolute}, which is ${reason} (protected: always asks)`,
        );
    }
  }
  return undefined;
}
