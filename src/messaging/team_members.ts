import { type TeamStore, teamMailNote } from './team_store.js';

/**
 * The running agents that may be team members, by name: team_delete refuses while one of a
 * team's members runs, and a running member gets its unread mail before each model request.
 */
export class TeamMembers {
  private readonly running = new Map<string, number>();

  constructor(private readonly teams: TeamStore) {
    teams.activeMembers = (team) => team.members.filter((member) => this.running.has(member));
  }

  /** Marks an agent running under `name` until the returned function is called. */
  markRunning(name: string): () => void {
    this.running.set(name, (this.running.get(name) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.running.get(name) ?? 1) - 1;
      if (left > 0) this.running.set(name, left);
      else this.running.delete(name);
    };
  }

  /** A member's unread mail, in every team it belongs to, as one note; undefined when there is none. */
  async takeMail(name: string): Promise<string | undefined> {
    const messages = await this.teams.takeUnread(name);
    return messages.length > 0 ? teamMailNote(messages) : undefined;
  }
}
