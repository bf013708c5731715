import type { WorkflowScript } from '../../config/commands/types.js';
import type { Tool } from '../../tool/types.js';
import { loadWorkflow } from './load_workflow.js';
import { runWorkflowTool } from './run_workflow.js';

/** load_workflow, and run_workflow for the scripts found in `workspace` and the user's folder. */
export function workflowTools(scripts: readonly WorkflowScript[] = [], workspace = ''): Tool[] {
  return [loadWorkflow as Tool, runWorkflowTool(scripts, workspace) as Tool];
}
