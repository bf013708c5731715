import { TASK_STATUSES } from '../../tool/context/tasks.js';
import {
  TEAM_TASK_STATUSES,
  type TeamAccess,
  type TeamTask,
  type TeamTaskStatus,
} from '../../tool/context/teams.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';

/** The task tools' statuses: a task of this session's table, or an item of a team's list. */
export const ANY_TASK_STATUS = [...TASK_STATUSES, ...TEAM_TASK_STATUSES] as const;

export const TEAM_PARAMETER =
  "A team's name (feature swarms): its shared task list, which every member sees, instead of this session's tasks";

/** The statuses one side takes, or the error naming them: a team's are not a session task's, nor back. */
export function statusProblem(team: string | undefined, status: string | undefined): string | undefined {
  if (status === undefined) return undefined;
  const allowed: readonly string[] = team === undefined ? TASK_STATUSES : TEAM_TASK_STATUSES;
  if (allowed.includes(status)) return undefined;
  return team === undefined
    ? `Status "${status}" is for a team's tasks (with team); this session's tasks are ${TASK_STATUSES.join(', ')}.`
    : `A team's tasks are ${TEAM_TASK_STATUSES.join(', ')}; "${status}" is for this session's tasks (without team).`;
}

/** The teams, or the error a tool returns when feature swarms is off. */
function teamAccess(ctx: ToolContext): { teams: TeamAccess } | { error: ToolOutput } {
  if (ctx.teams) return { teams: ctx.teams };
  return {
    error: {
      isError: true,
      text: 'Team task lists need feature swarms, which is off: turn it on (settings "features": ["swarms"], or --feature swarms), then team_create a team.',
    },
  };
}

/** Runs one team-list operation; the store's errors (an unknown team names the teams) become tool errors. */
async function withTeams(
  ctx: ToolContext,
  work: (teams: TeamAccess) => Promise<ToolOutput>,
): Promise<ToolOutput> {
  const access = teamAccess(ctx);
  if ('error' in access) return access.error;
  try {
    return await work(access.teams);
  } catch (error) {
    return { isError: true, text: (error as Error).message };
  }
}

export function teamTaskLine(task: TeamTask): string {
  return `${task.id} [${task.status}${task.owner ? ` by ${task.owner}` : ''}] ${task.subject}`;
}

export function createTeamTask(
  ctx: ToolContext,
  team: string,
  input: { subject: string; description?: string },
): Promise<ToolOutput> {
  return withTeams(ctx, async (teams) => {
    const task = await teams.recordTask(team, {
      subject: input.subject,
      ...(input.description ? { description: input.description } : {}),
      status: 'open',
    });
    return {
      text: `Added ${task.id} (open) to team ${team}'s task list: ${task.subject}. Every member sees it with task_list; claim or finish it with task_update.`,
      data: { team, ...task },
    };
  });
}

export function listTeamTasks(ctx: ToolContext, team: string, status?: string): Promise<ToolOutput> {
  return withTeams(ctx, async (teams) => {
    const shown = (await teams.tasks(team)).filter((t) => !status || t.status === status);
    if (shown.length === 0)
      return {
        text: status
          ? `No ${status} tasks in team ${team}.`
          : `Team ${team} has no tasks yet; task_create with team adds one.`,
        data: [],
      };
    return { text: shown.map(teamTaskLine).join('\n'), data: shown };
  });
}

/** Updates an item of a team's list: its latest record with the changes, as a new record. */
export function updateTeamTask(
  ctx: ToolContext,
  team: string,
  input: { id: string; subject?: string; description?: string; status?: string; owner?: string },
): Promise<ToolOutput> {
  return withTeams(ctx, async (teams) => {
    const list = await teams.tasks(team);
    const current = list.find((t) => t.id === input.id);
    if (!current) {
      const ids = list.map((t) => t.id);
      return {
        isError: true,
        text: `Team ${team} has no task ${input.id}. Its tasks: ${ids.length ? ids.join(', ') : 'none yet'}.`,
      };
    }
    const { at: _at, owner, ...kept } = current;
    const nextOwner = input.owner === undefined ? owner : input.owner || undefined;
    const task = await teams.recordTask(team, {
      ...kept,
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.status !== undefined ? { status: input.status as TeamTaskStatus } : {}),
      ...(nextOwner ? { owner: nextOwner } : {}),
    });
    return { text: `Updated ${teamTaskLine(task)} in team ${team}.`, data: { team, ...task } };
  });
}
