/** A team of agents (feature `swarms`): a shared task list and a durable mailbox per member. */
export interface TeamInfo {
  name: string;
  description?: string;
  members: string[];
  createdAt: string;
  /** The team's folder under the session's: `team.json`, `tasks.jsonl`, `mailboxes/<member>.jsonl`. */
  folder: string;
}

/** What team_create and team_delete need. */
export interface TeamAccess {
  /** Makes a team; a bad or taken name is an Error the model can act on, and nothing is made. */
  create(spec: { name: string; description?: string; members?: string[] }): Promise<TeamInfo>;
  /** Removes a team and its mailboxes; refuses (an Error saying why) while a member still runs. */
  delete(name: string): Promise<TeamInfo>;
  list(): Promise<TeamInfo[]>;
}
