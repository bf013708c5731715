import type { PromptCommand } from './prompt_command.js';

/** A Markdown workflow: steps the model follows (`load_workflow`, `/name`). */
export interface Workflow {
  name: string;
  description: string;
  path: string;
  /** The Markdown after any frontmatter: the list of steps. */
  steps: string;
}

/** A workflow script that `run_workflow` runs: `<name>.mjs` with node, or an executable file. */
export interface WorkflowScript {
  name: string;
  path: string;
  runner: 'node' | 'executable';
}

/** What discovery found; every file that could not be used is a warning naming it. */
export interface CommandDiscovery {
  commands: PromptCommand[];
  workflows: Workflow[];
  scripts: WorkflowScript[];
  warnings: string[];
}
