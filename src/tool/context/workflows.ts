import type { Workflow, WorkflowScript } from '../../config/commands/types.js';

/** The session's workflows (load_workflow) and workflow scripts (run_workflow). */
export interface WorkflowAccess {
  readonly workflows: readonly Workflow[];
  readonly scripts: readonly WorkflowScript[];
}
