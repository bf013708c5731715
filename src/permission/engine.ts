import { relative } from 'node:path';
import type { ResolvedSettings } from '../config/settings.js';
import type { ApprovalCategory, Mode } from '../config/types.js';
import { isInside, protectedReason, realPathOf, resolvePath } from './paths.js';
import {
  commandPatternMatches,
  hostPatternMatches,
  parseRule,
  pathPatternMatches,
  toolNameMatches,
} from './rules.js';
import type {
  PermissionDecision,
  PermissionEngine,
  PermissionQuery,
  PermissionRule,
  PermissionSubject,
  RuleAction,
} from './types.js';

export interface PermissionEngineOptions {
  settings: ResolvedSettings;
  workspace: string;
  documentsRoot: string;
  cwd: string;
  mode?: Mode;
  /** Answer every approval with yes (deny rules, protected paths and Plan mode still hold). */
  yolo?: boolean;
  /** Categories whose asks are answered yes. */
  approve?: readonly ApprovalCategory[] | 'all';
  /** Maps an alias to its tool's name, so rules may name either. */
  canonicalName?: (name: string) => string;
  /** More folders treated like the workspace for reading and editing (`--add-dir`). */
  extraRoots?: readonly string[];
}

interface Target {
  absolute: string;
  real: string;
  relative?: string;
  /** Inside a folder added with `--add-dir`: not "outside" for the approval categories. */
  inExtraRoot?: boolean;
}

/** The declarative permission engine of SPEC §2: categories, rules (deny > ask > allow), protected paths, modes. */
export class RulePermissionEngine implements PermissionEngine {
  readonly rules: PermissionRule[] = [];
  readonly warnings: string[] = [];
  private currentMode: Mode;
  private readonly workspaceReal: string;
  private readonly extraRootsReal: string[];

  constructor(private readonly options: PermissionEngineOptions) {
    this.currentMode = options.mode ?? options.settings.mode;
    this.workspaceReal = realPathOf(options.workspace);
    this.extraRootsReal = (options.extraRoots ?? []).map((root) => realPathOf(root));
    for (const text of options.settings.rules) {
      const rule = parseRule(text);
      if (typeof rule === 'string') this.warnings.push(rule);
      else this.rules.push({ ...rule, tool: this.canonical(rule.tool) });
    }
  }

  get mode(): Mode {
    return this.currentMode;
  }

  setMode(mode: Mode): void {
    this.currentMode = mode;
  }

  isToolDenied(tool: string): boolean {
    return this.rules.some(
      (r) => r.action === 'deny' && r.pattern === undefined && toolNameMatches(r.tool, tool),
    );
  }

  decide(query: PermissionQuery): PermissionDecision {
    const { subject } = query;
    const { settings } = this.options;
    const plan = this.currentMode === 'plan';

    // Strict Plan Mode refuses the file-writing tools outright, without asking.
    if (plan && settings.strictPlanMode && query.strictPlanRefused && !subject.planFile) {
      return { behavior: 'deny', reason: `${query.tool} is refused in Plan mode (Strict Plan Mode is on)` };
    }

    const targets = (subject.paths ?? []).map((p) => this.target(p));
    const category = this.category(subject, targets, query.readOnly);
    const matched = this.matchingRules(query.tool, subject, targets);

    const deny = matched.find((r) => r.action === 'deny');
    if (deny) return { behavior: 'deny', reason: `denied by rule ${describe(deny)} (${deny.source})` };
    if (
      category &&
      settings.approvals[category] === 'deny' &&
      !this.coveredByAllow(matched, subject, targets)
    ) {
      return { behavior: 'deny', reason: `the ${category} approval setting is deny` };
    }

    // Protected paths and Plan mode ask whatever rules, approvals or --yolo say.
    if (!query.readOnly) {
      for (const t of targets) {
        const reason = protectedReason(t.real, this.workspaceReal, realPathOf(this.options.documentsRoot));
        if (reason) {
          return { behavior: 'ask', reason: `${t.absolute} is ${reason} (protected: always asks)`, category };
        }
      }
      if (plan && !subject.planFile) {
        return {
          behavior: 'ask',
          reason: `${query.tool} changes the workspace and lathe is in Plan mode`,
          category,
        };
      }
    }

    const ask = matched.find((r) => r.action === 'ask');
    if (ask) return this.answerAsk(`rule ${describe(ask)} asks (${ask.source})`, category);
    if (this.coveredByAllow(matched, subject, targets)) return { behavior: 'allow' };
    if (!category) return { behavior: 'allow' };
    const action = settings.approvals[category];
    if (action === 'allow') return { behavior: 'allow' };
    return this.answerAsk(`${query.tool} needs approval (category ${category})`, category);
  }

  /** --yolo and --approve answer an ordinary ask with yes. */
  private answerAsk(reason: string, category: ApprovalCategory | undefined): PermissionDecision {
    const { yolo, approve } = this.options;
    if (yolo) return { behavior: 'allow' };
    if (approve === 'all' || (category && approve?.includes(category))) return { behavior: 'allow' };
    return { behavior: 'ask', reason, category };
  }

  private canonical(name: string): string {
    return this.options.canonicalName ? this.options.canonicalName(name) : name;
  }

  private target(p: string): Target {
    const { lexical, real } = resolvePath(p, this.options.cwd);
    const inside = isInside(real, this.workspaceReal);
    return {
      absolute: lexical,
      real,
      relative: inside ? relative(this.workspaceReal, real) || '.' : undefined,
      inExtraRoot: !inside && this.extraRootsReal.some((root) => isInside(real, root)),
    };
  }

  private category(
    subject: PermissionSubject,
    targets: Target[],
    readOnly: boolean,
  ): ApprovalCategory | undefined {
    const outside = targets.some((t) => t.relative === undefined && !t.inExtraRoot);
    switch (subject.kind) {
      case 'read':
        return outside ? 'readOutside' : 'read';
      case 'edit':
        return outside ? 'editOutside' : 'edit';
      case 'execute':
        return subject.readOnlyCommand && readOnly ? 'executeSafe' : 'executeAll';
      case 'none':
        return undefined;
      default:
        return subject.kind;
    }
  }

  /** Rules of this tool whose pattern matches any path or subject of the call. */
  private matchingRules(tool: string, subject: PermissionSubject, targets: Target[]): PermissionRule[] {
    return this.rules.filter((rule) => {
      if (!toolNameMatches(rule.tool, tool)) return false;
      if (rule.pattern === undefined) return true;
      if (targets.some((t) => this.pathMatches(rule, t, rule.action !== 'allow'))) return true;
      return (subject.subjects ?? []).some((s) => this.subjectMatches(rule.pattern!, subject, s));
    });
  }

  /** An allow rule covers the call only when it covers every path and every subcommand. */
  private coveredByAllow(matched: PermissionRule[], subject: PermissionSubject, targets: Target[]): boolean {
    const allows = matched.filter((r) => r.action === 'allow');
    if (allows.length === 0) return false;
    if (allows.some((r) => r.pattern === undefined)) return true;
    const subjects = subject.subjects ?? [];
    if (targets.length === 0 && subjects.length === 0) return false;
    return (
      targets.every((t) => allows.some((r) => this.pathMatches(r, t, false))) &&
      subjects.every((s, i) =>
        allows.some(
          (r) =>
            this.subjectMatches(r.pattern!, subject, s) &&
            (subject.writes?.[i] ?? []).every((target) => r.pattern!.includes(target)),
        ),
      )
    );
  }

  /**
   * Deny and ask rules match the path as written or as resolved through symlinks; an allow rule
   * only the real path, so a link cannot smuggle a file under an allow.
   */
  private pathMatches(rule: PermissionRule, t: Target, either: boolean): boolean {
    const realRel = t.relative;
    if (pathPatternMatches(rule.pattern!, t.real, realRel)) return true;
    if (!either) return false;
    const lexicalRel = isInside(t.absolute, this.options.workspace)
      ? relative(this.options.workspace, t.absolute) || '.'
      : undefined;
    return pathPatternMatches(rule.pattern!, t.absolute, lexicalRel);
  }

  private subjectMatches(pattern: string, subject: PermissionSubject, value: string): boolean {
    if (subject.kind === 'execute') return commandPatternMatches(pattern, value);
    if (subject.kind === 'web' || subject.kind === 'browser') return hostPatternMatches(pattern, value);
    return toolNameMatches(pattern, value);
  }
}

function describe(rule: PermissionRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

export type { RuleAction };
