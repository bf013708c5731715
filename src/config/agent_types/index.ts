import type { Mode } from '../types.js';

/** A kind of child agent: what it is for, its tools, its instructions and its limits. */
export interface AgentType {
  name: string;
  description: string;
  /** The child's own instructions (a custom type's body); they lead its system prompt. */
  prompt?: string;
  /** The only tools it gets, when given. */
  tools?: string[];
  /** Tools it never gets. */
  disallowedTools?: string[];
  model?: string;
  mode?: Mode;
  maxTurns?: number;
  isolation?: 'worktree';
  /** Only tools that change nothing. */
  readOnly?: boolean;
  /** 'built-in' or the file it was read from. */
  source: string;
  origin: 'built-in' | 'lathe' | 'user' | 'claude' | 'gemini' | 'opencode' | 'codex';
}

const BUILT_IN: readonly AgentType[] = [
  {
    name: 'general',
    description: 'Any multi-step task: research, edits, commands. Gets your tools.',
    source: 'built-in',
    origin: 'built-in',
  },
  {
    name: 'explore',
    description: 'Finds and reads code to answer a question; read-only tools, changes nothing.',
    prompt:
      'You explore a codebase to answer one question. Search and read; change nothing. ' +
      'Answer with what you found: the files and lines that matter, and the answer itself.',
    readOnly: true,
    source: 'built-in',
    origin: 'built-in',
  },
  {
    name: 'plan',
    description: 'Designs how to make a change and returns the plan; read-only tools, changes nothing.',
    prompt:
      'You design how to make a change. Read the code the change touches; change nothing. ' +
      'Answer with a plan: the steps in order, the files each step changes, and the risks.',
    readOnly: true,
    source: 'built-in',
    origin: 'built-in',
  },
];

/** The types a runtime offers: the built-in ones (custom types join them from their folders). */
export function discoverAgentTypes(_options: {
  workspace: string;
  documentsRoot: string;
  includeWorkspace: boolean;
}): { types: AgentType[]; warnings: string[] } {
  return { types: BUILT_IN.map((type) => ({ ...type })), warnings: [] };
}
