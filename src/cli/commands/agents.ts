import { type AgentType, discoverAgentTypes } from '../../config/agent_types/index.js';
import { isFolderTrusted } from '../../config/trust.js';
import { runtimePlaces } from '../../runtime/configuration.js';
import { pathInside } from '../../util/inside_folder.js';

export interface AgentsOptions {
  cwd?: string;
  /** `--trust`: read the workspace's agent files though the folder is not trusted. */
  trust?: boolean;
  json?: boolean;
}

/** A file inside the workspace by its path there; others in full. */
function shownSource(type: AgentType, workspace: string): string {
  if (type.origin === 'built-in') return 'built-in';
  return pathInside(type.source, workspace) ?? type.source;
}

/** What a type may use, in a few words: its tools, what it may not, its model and limits. */
function detailsOf(type: AgentType): string {
  const parts = [
    type.tools
      ? `tools: ${type.tools.length > 0 ? type.tools.join(', ') : 'none'}`
      : type.readOnly
        ? 'tools: read-only'
        : "tools: the parent's",
  ];
  if (type.tools && type.readOnly) parts.push('read-only');
  if (type.disallowedTools?.length) parts.push(`not: ${type.disallowedTools.join(', ')}`);
  parts.push(`model: ${type.model ?? "the parent's"}`);
  if (type.mode) parts.push(`mode: ${type.mode}`);
  if (type.maxTurns) parts.push(`maxTurns: ${type.maxTurns}`);
  if (type.isolation) parts.push(`isolation: ${type.isolation}`);
  return parts.join(' · ');
}

/**
 * `lathe agents list [--json]`: every agent type a child can be, built-in first, with where each
 * comes from; what could not be read goes to stderr as warnings. The workspace's files count
 * only when the folder is trusted (or with --trust), as for a run.
 */
export function agentsCommand(opts: AgentsOptions): number {
  const { workspace, documentsRoot } = runtimePlaces({ cwd: opts.cwd });
  const includeWorkspace = opts.trust === true || isFolderTrusted(documentsRoot, workspace);
  const { types, warnings } = discoverAgentTypes({ workspace, documentsRoot, includeWorkspace });
  for (const warning of warnings) process.stderr.write(`lathe: warning: ${warning}\n`);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(types, null, 2)}\n`);
    return 0;
  }
  const lines: string[] = [];
  for (const type of types) {
    lines.push(`${type.name}  (${shownSource(type, workspace)})`);
    lines.push(`  ${type.description.replace(/\s+/g, ' ')}`);
    lines.push(`  ${detailsOf(type)}`);
  }
  const custom = types.filter((type) => type.origin !== 'built-in').length;
  lines.push('', `${types.length} agent types (${custom} custom)`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
