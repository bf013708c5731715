import type { AgentHooks } from '../hooks/index.js';
import { toolHooks } from '../hooks/index.js';
import type { ToolExecution } from '../tool/executor.js';
import type { ApprovalAnswer, ApprovalRequest, ToolCall } from '../tool/run_call.js';
import type { ToolResult } from '../tool/types.js';
import type { PoolState } from './pool_state.js';
import { type ExecutionOptions, type SharedParts, toolExecution } from './tool_context.js';

/** How the user's agent's calls run: streaming executions, and whole batches of calls. */
export interface ToolRuns {
  createExecution(options?: ExecutionOptions): ToolExecution;
  runTools(calls: ToolCall[]): Promise<ToolResult[]>;
  runTool(name: string, input: unknown): Promise<ToolResult>;
}

/** Runs calls in the user's agent's pool and session folder, through the session's tool hooks. */
export function toolRuns(
  shared: SharedParts,
  own: {
    tools: PoolState;
    sessionDir: string;
    hooks: AgentHooks;
    askUser?: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  },
): ToolRuns {
  const { tools, sessionDir, askUser } = own;
  const callHooks = toolHooks(own.hooks.set);
  let callCounter = 0;
  const createExecution = (extra: ExecutionOptions = {}): ToolExecution =>
    toolExecution(
      shared,
      {
        pool: tools.pool,
        sessionDir,
        conditions: tools.conditions,
        readFiles: shared.services.readFiles,
        mcp: tools.mcp,
        deferredTools: tools.deferredTools,
        askUser,
        hooks: callHooks,
      },
      extra,
    );
  const runTools = async (calls: ToolCall[]): Promise<ToolResult[]> => {
    const execution = createExecution();
    for (const call of calls) execution.add(call);
    execution.close();
    const results: ToolResult[] = [];
    for await (const { result } of execution.results()) results.push(result);
    return results;
  };
  return {
    createExecution,
    runTools,
    async runTool(name, input) {
      const [result] = await runTools([{ id: `call_${++callCounter}`, name, input }]);
      return result;
    },
  };
}
