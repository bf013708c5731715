import type { WorkflowScript } from '../config/commands/types.js';
import type { AgentTypeSummary } from '../tool/context/agents.js';
import { findTool } from '../tool/pool.js';
import type { Tool } from '../tool/types.js';
import { agentTools } from './agents/index.js';
import { listPeers } from './agents/list_peers.js';
import { sendMessage } from './agents/send_message.js';
import { spawnTask } from './agents/spawn_task.js';
import { teamCreate } from './agents/team_create.js';
import { teamDelete } from './agents/team_delete.js';
import { brief } from './assistant/brief.js';
import { pushNotification } from './assistant/push_notification.js';
import { sendUserFile } from './assistant/send_user_file.js';
import { config } from './config/config.js';
import { newRule } from './config/new_rule.js';
import { ctxInspect } from './context/ctx_inspect.js';
import { snip } from './context/snip.js';
import { askFollowupQuestion } from './conversation/ask_followup_question.js';
import { attemptCompletion } from './conversation/attempt_completion.js';
import { generateReport } from './conversation/generate_report.js';
import { phaseReport } from './conversation/phase_report.js';
import { enterPlanMode, exitPlanMode, makePlan } from './conversation/plan_tools.js';
import { qnaRespond } from './conversation/qna_respond.js';
import { structuredOutput } from './conversation/structured_output.js';
import { workingRespond } from './conversation/working_respond.js';
import { applyPatch } from './edit/apply_patch.js';
import { editFile } from './edit/edit_file.js';
import { notebookEdit } from './edit/notebook_edit.js';
import { replaceInFile } from './edit/replace_in_file.js';
import { replaceText } from './edit/replace_text.js';
import { writeToFile } from './edit/write_to_file.js';
import { executeCommand, killCommand } from './exec/execute_command.js';
import { listFiles } from './files/list_files.js';
import { readFileTool } from './files/read_file.js';
import { githubTools } from './github/index.js';
import { lspTools } from './lsp/index.js';
import { mcpTools } from './mcp/index.js';
import { verifyPlanExecution } from './plan/verify_plan_execution.js';
import { repl } from './repl/repl.js';
import { scheduleTools } from './schedule/index.js';
import { glob } from './search/glob.js';
import { listCodeDefinitionNames } from './search/list_code_definition_names.js';
import { searchFiles } from './search/search_files.js';
import { loadSkill } from './skills/load_skill.js';
import { taskTools } from './tasks/index.js';
import { terminalCapture } from './terminal/terminal_capture.js';
import { overflowTest } from './testing/overflow_test.js';
import { testingPermission } from './testing/testing_permission.js';
import { monitor } from './timing/monitor.js';
import { sleep } from './timing/sleep.js';
import { changeTodoList } from './todo/change_todo_list.js';
import { browserAction } from './web/browser_action.js';
import { generateImage } from './web/generate_image.js';
import { webFetch } from './web/web_fetch.js';
import { webSearch } from './web/web_search.js';
import { workflowTools } from './workflows/index.js';
import { worktreeTools } from './worktree/index.js';

/**
 * Every built-in tool; the pool keeps those whose conditions hold. `agentTypes`: the child agent
 * types the runtime has, which the subagent tools' `type` parameter lists; `workflows`: the
 * workflow scripts run_workflow runs, and the workspace they were found in.
 */
export function builtinTools(
  agentTypes: readonly AgentTypeSummary[] = [],
  workflows: { scripts: readonly WorkflowScript[]; workspace: string } = { scripts: [], workspace: '' },
): Tool[] {
  return [
    readFileTool,
    listFiles,
    glob,
    searchFiles,
    listCodeDefinitionNames,
    writeToFile,
    replaceInFile,
    applyPatch,
    editFile,
    replaceText,
    notebookEdit,
    ...lspTools,
    executeCommand,
    killCommand,
    webFetch,
    webSearch,
    askFollowupQuestion,
    attemptCompletion,
    qnaRespond,
    makePlan,
    workingRespond,
    phaseReport,
    generateReport,
    enterPlanMode,
    exitPlanMode,
    structuredOutput,
    newRule,
    loadSkill,
    ...workflowTools(workflows.scripts, workflows.workspace),
    changeTodoList,
    ...mcpTools,
    ...taskTools,
    sleep,
    monitor,
    ...scheduleTools,
    ...agentTools(agentTypes),
    ...worktreeTools,
    sendMessage,
    teamCreate,
    teamDelete,
    listPeers,
    spawnTask,
    browserAction,
    generateImage,
    brief,
    config,
    repl,
    sendUserFile,
    pushNotification,
    ...githubTools,
    terminalCapture,
    verifyPlanExecution,
    overflowTest,
    testingPermission,
    ctxInspect,
    snip,
  ];
}

let catalogue: readonly Tool[] | undefined;

/**
 * A built-in tool by name or alias, whether or not the pool offers it now: what clients look up
 * to show a call of any session (its title, kind, how its result reads).
 */
export function builtinTool(name: string): Tool | undefined {
  catalogue ??= builtinTools();
  return findTool(catalogue, name);
}
