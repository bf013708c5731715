/** A team of agents (feature `swarms`): a shared task list and a durable mailbox per member. */
export interface TeamInfo {
  name: string;
  description?: string;
  members: string[];
  createdAt: string;
  /** The team's folder under the session's: `team.json`, `tasks.jsonl`, `mailboxes/<member>.jsonl`. */
  folder: string;
}

/** One item of a team's shared task list (the list is its records in order; later ones update earlier). */
export interface TeamTask {
  id: string;
  subject: string;
  description?: string;
  status: TeamTaskStatus;
  owner?: string;
  at: string;
}

export const TEAM_TASK_STATUSES = ['open', 'claimed', 'done'] as const;
export type TeamTaskStatus = (typeof TEAM_TASK_STATUSES)[number];

/** What team_create, team_delete and the task tools with `team` need. */
export interface TeamAccess {
  /** Makes a team; a bad or taken name is an Error the model can act on, and nothing is made. */
  create(spec: { name: string; description?: string; members?: string[] }): Promise<TeamInfo>;
  /** Removes a team and its mailboxes; refuses (an Error saying why) while a member still runs. */
  delete(name: string): Promise<TeamInfo>;
  list(): Promise<TeamInfo[]>;
  /** Adds to (or, with an id, updates an item of) the team's task list; an unknown team is an Error naming the teams. */
  recordTask(team: string, task: Omit<TeamTask, 'at' | 'id'> & { id?: string }): Promise<TeamTask>;
  /** The team's task list, each item as its latest record says; an unknown team is an Error naming the teams. */
  tasks(team: string): Promise<TeamTask[]>;
}
