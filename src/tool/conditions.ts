import type { PoolConditions, ProviderCapabilities, Tool } from './types.js';

export const FULL_CAPABILITIES: ProviderCapabilities = {
  images: true,
  browserUse: true,
  nativeTools: true,
  imageGeneration: true,
};

export function defaultConditions(overrides: Partial<PoolConditions> = {}): PoolConditions {
  return {
    profile: 'standard',
    mode: 'act',
    strictPlanMode: false,
    features: new Set(['browser', 'subagents']),
    capabilities: FULL_CAPABILITIES,
    agentKind: 'main',
    mcpConnected: false,
    hasSkills: false,
    hasWorkflows: false,
    languageServers: false,
    jsonSchema: false,
    childAgents: true,
    platform: process.platform,
    nodeEnv: process.env.NODE_ENV,
    ...overrides,
  };
}

/** Why a tool is not offered under these conditions, or undefined when it is (profile, mode, features, provider, permissions). */
export function unmetCondition(tool: Tool, c: PoolConditions): string | undefined {
  const a = tool.availability;
  if (a.testOnly && c.nodeEnv !== 'test') return 'exists only under NODE_ENV=test';
  if (!a.profiles.includes(c.profile)) return `not in the ${c.profile} profile`;
  if (a.feature && !c.features.has(a.feature)) return `needs feature ${a.feature}`;
  if (a.modes && !a.modes.includes(c.mode)) return `not offered in ${c.mode} mode`;
  for (const need of a.needs ?? []) {
    if (!c.capabilities[need]) return `the model lacks ${need}`;
  }
  if (a.notFor?.includes(c.agentKind)) return `not offered inside a ${c.agentKind}`;
  for (const requirement of a.requires ?? []) {
    if (requirement === 'mcp' && !c.mcpConnected) return 'needs a connected MCP server';
    if (requirement === 'skills' && !c.hasSkills) return 'needs at least one skill';
    if (requirement === 'workflows' && !c.hasWorkflows) return 'needs at least one workflow';
    if (requirement === 'languageServer' && !c.languageServers) return 'needs a language server';
    if (requirement === 'jsonSchema' && !c.jsonSchema) return 'only in headless --json-schema runs';
    if (requirement === 'childAgents' && !c.childAgents) return 'at the depth limit (agents.maxDepth)';
  }
  if (!tool.isEnabled(c)) return 'disabled';
  return undefined;
}
