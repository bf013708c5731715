import { relative } from 'node:path';
import type { ResolvedSettings, RuleText } from '../config/settings.js';
import type { ApprovalCategory, Mode } from '../config/types.js';
import { type CommandFacts, commandFacts } from './command_facts.js';
import { deniedPlaces, protectedPlaces } from './guarded_places.js';
import { LinkedNames, linkedFile } from './linked_names.js';
import { type NamedTarget, type PathGuard, pathDenial, protectedAsk, type Target } from './path_guard.js';
import { isInside, protectedReason, realPathOf, resolvePath } from './paths.js';
import type { Place } from './place.js';
import { broadAllowWarnings } from './rule_breadth.js';
import { parseRule, pathPatternMatches, pathRuleAccess, subjectMatches, toolNameMatches } from './rules.js';
import type { NamedPath } from './shell/arguments.js';
import type {
  PathRuleTools,
  PermissionDecision,
  PermissionEngine,
  PermissionQuery,
  PermissionRule,
  PermissionSubject,
  RuleAction,
  RuleLists,
} from './types.js';
import { workflowScriptWord } from './workflow_script.js';

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
  /**
   * Whether the workspace is trusted: only then is running one of its workflow scripts
   * (`.agents/workflows/`) no change to its protected `.agents/` folder.
   */
  workspaceTrusted?: boolean;
  /** Which tools' path rules guard reading and writing for every tool (from the tools' declarations). */
  pathRuleTools: PathRuleTools;
  /**
   * Where the workspace and cwd are read from at each decision, when they move (a worktree);
   * without it they are `workspace` and `cwd`, fixed.
   */
  place?: Place;
}

/** The declarative permission engine: categories, rules (deny > ask > allow), protected paths, modes. */
export class RulePermissionEngine implements PermissionEngine {
  private readonly ruleList: PermissionRule[] = [];
  readonly warnings: string[] = [];
  private currentMode: Mode;
  private readonly place: Place;
  /** The workspace's real path, found again only when the workspace moves. */
  private real: { workspace: string; real: string } | undefined;
  private readonly extraRootsReal: string[];
  /** Where the guarded names of hard-linked files were last looked for, by what guards them. */
  private readonly linkedNames = { denied: new LinkedNames(), protected: new LinkedNames() };

  constructor(private readonly options: PermissionEngineOptions) {
    this.currentMode = options.mode ?? options.settings.mode;
    this.place = options.place ?? options;
    this.extraRootsReal = (options.extraRoots ?? []).map((root) => realPathOf(root));
    for (const text of options.settings.rules) {
      const problem = this.addParsed(text);
      if (problem) this.warnings.push(problem);
    }
    this.warnings.push(...broadAllowWarnings(this.ruleList, options.pathRuleTools.commands ?? []));
  }

  /** The folders added with `--add-dir`, as given. */
  get extraRoots(): readonly string[] {
    return this.options.extraRoots ?? [];
  }

  private get workspaceReal(): string {
    const { workspace } = this.place;
    if (this.real?.workspace !== workspace) this.real = { workspace, real: realPathOf(workspace) };
    return this.real.real;
  }

  /** The rules in effect, in the order they were added: settings first, then the session's. */
  get rules(): readonly PermissionRule[] {
    return this.ruleList;
  }

  /**
   * Adds rules to the running engine (an answer's "don't ask again", an MCP server's
   * autoApprove, rules carried over from another runtime); `source` says where they come from
   * in messages and in /permissions. Returns the problems of rules that do not parse, which are
   * left out.
   */
  addRules(rules: RuleLists, source: string): string[] {
    const problems: string[] = [];
    for (const action of ['allow', 'ask', 'deny'] as const) {
      for (const rule of rules[action] ?? []) {
        const problem = this.addParsed({ rule, action, source });
        if (problem) problems.push(problem);
      }
    }
    return problems;
  }

  /** Takes a rule (one of `rules`) out of the running engine; false when it is not there. */
  removeRule(rule: PermissionRule): boolean {
    const index = this.ruleList.indexOf(rule);
    if (index < 0) return false;
    this.ruleList.splice(index, 1);
    return true;
  }

  private addParsed(text: RuleText): string | undefined {
    const rule = parseRule(text);
    if (typeof rule === 'string') return rule;
    this.ruleList.push({ ...rule, tool: this.canonical(rule.tool) });
    return undefined;
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

    const facts = this.commandFacts(subject);
    // The network or git's repository can make a command that only reads by its text more than a read.
    const readOnly = query.readOnly && (facts?.notReadOnly.length ?? 0) === 0;
    const targets = (subject.paths ?? []).map((p) => this.target(p));
    const named = (facts?.paths ?? []).map((path) => this.namedTarget(path, subject.cwd));
    const outsideRead = named.find((n) => n.outside && n.path.access === 'read');
    const category = this.category(subject, targets, readOnly, outsideRead !== undefined);
    const matched = this.matchingRules(query.tool, subject, targets);
    // A command pattern says nothing of the paths a command reads: it does not lift readOutside.
    const allowed =
      this.coveredByAllow(matched, subject, targets) && !(subject.kind === 'execute' && outsideRead);

    const deny = matched.find((r) => r.action === 'deny');
    if (deny) return { behavior: 'deny', reason: `denied by rule ${describe(deny)} (${deny.source})` };
    const pathDeny = pathDenial(this.pathGuard(), subject, targets, named);
    if (pathDeny) return pathDeny;
    if (category && settings.approvals[category] === 'deny' && !allowed) {
      return { behavior: 'deny', reason: `the ${category} approval setting is deny` };
    }

    // Protected paths and Plan mode ask whatever rules, approvals or --yolo say.
    if (!readOnly) {
      const script = this.workflowScript(subject, named);
      const written = [
        ...targets,
        ...named.filter((n) => n.path.access === 'write' && n !== script).flatMap((n) => n.targets),
      ];
      const guarded = protectedAsk(this.pathGuard(), written, category);
      if (guarded) return guarded;
      if (plan && !subject.planFile) {
        const why = subject.unparsed
          ? ` runs a command that could not be parsed (${subject.unparsed}) and`
          : facts?.notReadOnly.length
            ? ` is not read-only (${facts.notReadOnly.join('; ')}) and`
            : ' changes the workspace and';
        return {
          behavior: 'ask',
          reason: `${query.tool}${why} lathe is in Plan mode`,
          category,
          hint: "in Plan mode each change needs a person's yes, even under --yolo; leave Plan mode (--mode act) to run it",
          sticky: 'plan',
        };
      }
    }

    const ask = matched.find((r) => r.action === 'ask');
    if (ask) return this.answerAsk(`rule ${describe(ask)} asks (${ask.source})`, category);
    if (allowed) return { behavior: 'allow' };
    if (!category) return { behavior: 'allow' };
    const action = settings.approvals[category];
    if (action === 'allow') return { behavior: 'allow' };
    let reason = `${query.tool} needs approval (category ${category})`;
    if (outsideRead && category === 'readOutside') {
      reason += `: ${outsideRead.path.text} ${outsideRead.path.unknown ? 'may lie' : 'lies'} outside the workspace`;
      return this.answerAsk(reason, category, 'rerun with --approve readOutside or --yolo');
    }
    if (subject.unparsed) reason += `: the command could not be parsed (${subject.unparsed})`;
    else if (facts?.notReadOnly.length) reason += `: ${facts.notReadOnly.join('; ')}`;
    return this.answerAsk(reason, category);
  }

  decidePath(tool: string, access: 'read' | 'edit', path: string): PermissionDecision {
    return this.decide({
      tool: this.canonical(tool),
      readOnly: access === 'read',
      subject: { kind: access, paths: [path] },
      strictPlanRefused: false,
    });
  }

  readDenyPatterns(): string[] {
    const patterns = this.rules
      .filter((rule) => rule.action === 'deny' && pathRuleAccess(rule, this.options.pathRuleTools) === 'read')
      .map((rule) => rule.pattern!);
    return [...new Set(patterns)];
  }

  /** How paths are judged by their names: the path deny rules, protection, and other names of linked files. */
  private pathGuard(): PathGuard {
    const tools = this.options.pathRuleTools;
    const rules = this.rules.filter((r) => r.action === 'deny' && pathRuleAccess(r, tools) !== undefined);
    const documentsRoot = () => realPathOf(this.options.documentsRoot);
    return {
      rules,
      access: (rule) => pathRuleAccess(rule, tools),
      matches: (rule, t) => this.pathMatches(rule, t, true),
      protectedReason: (t) => protectedReason(t.real, this.workspaceReal, documentsRoot()),
      links: (t, guarded) => {
        const file = linkedFile(t.real);
        if (!file) return [];
        const places =
          guarded === 'denied'
            ? deniedPlaces(this.workspaceReal, [...new Set(rules.map((r) => r.pattern!))])
            : protectedPlaces(this.workspaceReal, documentsRoot());
        const names = this.linkedNames[guarded].guardedNames(file, places);
        return names?.filter((name) => name !== t.real).map((name) => this.target(name));
      },
    };
  }

  /** The word of a run_workflow command that names its script, when running it is no change. */
  private workflowScript(subject: PermissionSubject, named: NamedTarget[]): NamedTarget | undefined {
    if (subject.kind !== 'execute' || subject.workflowScript === undefined) return undefined;
    return workflowScriptWord(named, {
      real: realPathOf(subject.workflowScript),
      workspaceReal: this.workspaceReal,
      trusted: this.options.workspaceTrusted === true,
    });
  }

  /** The facts of a parsed shell command in this place (undefined for other subjects). */
  private commandFacts(subject: PermissionSubject): CommandFacts | undefined {
    if (subject.kind !== 'execute' || !subject.commands) return undefined;
    const { settings } = this.options;
    const { workspace, cwd } = this.place;
    return commandFacts(subject.commands, {
      cwd: subject.cwd ? resolvePath(subject.cwd, cwd).lexical : cwd,
      workspace,
      // Without the sandbox, or with its network on, a command can send what it reads anywhere.
      network: settings.sandbox.network || settings.sandbox.mode === 'off',
    });
  }

  private namedTarget(path: NamedPath, cwd: string | undefined): NamedTarget {
    const base = cwd ? resolvePath(cwd, this.place.cwd).lexical : this.place.cwd;
    const targets = path.absolute.map((p) => this.target(p, base));
    return { path, targets, outside: path.unknown || targets.some((t) => t.relative === undefined) };
  }

  /** --yolo and --approve answer an ordinary ask with yes. */
  private answerAsk(
    reason: string,
    category: ApprovalCategory | undefined,
    hint?: string,
  ): PermissionDecision {
    const { yolo, approve } = this.options;
    if (yolo) return { behavior: 'allow' };
    if (approve === 'all' || (category && approve?.includes(category))) return { behavior: 'allow' };
    return { behavior: 'ask', reason, category, ...(hint ? { hint } : {}) };
  }

  private canonical(name: string): string {
    return this.options.canonicalName ? this.options.canonicalName(name) : name;
  }

  private target(p: string, cwd = this.place.cwd): Target {
    const { lexical, real } = resolvePath(p, cwd);
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
    readsOutside: boolean,
  ): ApprovalCategory | undefined {
    const outside = targets.some((t) => t.relative === undefined && !t.inExtraRoot);
    switch (subject.kind) {
      case 'read':
        return outside ? 'readOutside' : 'read';
      case 'edit':
        return outside ? 'editOutside' : 'edit';
      case 'execute':
        // A command that only reads, but reads outside the workspace, asks as read_file would.
        if (!subject.readOnlyCommand || !readOnly) return 'executeAll';
        return readsOutside ? 'readOutside' : 'executeSafe';
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
      return (subject.subjects ?? []).some((_, i) => subjectMatches(rule, subject, i));
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
      subjects.every((_, i) =>
        allows.some(
          (r) =>
            subjectMatches(r, subject, i) &&
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
    const { workspace } = this.place;
    const lexicalRel = isInside(t.absolute, workspace) ? relative(workspace, t.absolute) || '.' : undefined;
    return pathPatternMatches(rule.pattern!, t.absolute, lexicalRel);
  }
}

function describe(rule: PermissionRule): string {
  return rule.pattern === undefined ? rule.tool : `${rule.tool}(${rule.pattern})`;
}

export type { RuleAction };
