import { homedir } from 'node:os';
import { type AgentType, discoverAgentTypes } from '../config/agent_types/index.js';
import { CommandCatalog, discoverCommands } from '../config/commands/index.js';
import { discoverSkills, SkillCatalog, skillCommands } from '../config/skills/index.js';
import { findTool } from '../tool/pool.js';
import type { Tool } from '../tool/types.js';
import { builtinTools } from '../tools/index.js';
import type { RuntimeConfiguration } from './configuration.js';

/** What a session finds in its folders at the start: agent types, commands, skills, and the built-in tools they shape. */
export interface SessionContent {
  agentTypes: AgentType[];
  /** Whether the session has workflows (the workflow tools join the pool). */
  hasWorkflows: boolean;
  builtins: Tool[];
  skills: SkillCatalog;
  commands: CommandCatalog;
}

/**
 * Finds the session's agent types, commands and skills (the workspace's only when it is
 * trusted), with their warnings in `configuration.warnings`. A discovered agent type wins over
 * a program's of the same name.
 */
export function discoverSessionContent(
  configuration: RuntimeConfiguration,
  extraAgentTypes: readonly AgentType[] = [],
): SessionContent {
  const { env, workspace, documentsRoot, trust, warnings } = configuration;
  const agentTypes = discoverAgentTypes({ workspace, documentsRoot, includeWorkspace: trust.trusted });
  warnings.push(...agentTypes.warnings);
  for (const extra of extraAgentTypes)
    if (!agentTypes.types.some((t) => t.name === extra.name)) agentTypes.types.push(extra);
  const foundCommands = discoverCommands({
    workspace,
    documentsRoot,
    home: env.HOME || homedir(),
    includeWorkspace: trust.trusted,
  });
  warnings.push(...foundCommands.warnings);
  const builtins = builtinTools(agentTypes.types, { scripts: foundCommands.scripts, workspace });
  const foundSkills = discoverSkills({
    workspace,
    documentsRoot,
    includeWorkspace: trust.trusted,
    isTool: (name) => findTool(builtins, name) !== undefined,
  });
  warnings.push(...foundSkills.warnings);
  const skills = new SkillCatalog(foundSkills.skills);
  // A user-invocable skill is a command too: `/<skill-name> args`.
  const commands = new CommandCatalog(foundCommands, skillCommands(skills.all));
  warnings.push(...commands.warnings);
  return {
    agentTypes: agentTypes.types,
    hasWorkflows: foundCommands.workflows.length > 0,
    builtins,
    skills,
    commands,
  };
}
