import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWriteFile } from '../edit/atomic_write.js';
import type { Recipient, RecipientSource } from '../tool/context/messages.js';
import type { TeamAccess, TeamInfo, TeamTask } from '../tool/context/teams.js';
import { appendRecords, readRecords, takeNewRecords } from './locked_jsonl.js';

export type { TeamTask } from '../tool/context/teams.js';

/** One message in a member's mailbox. */
export interface TeamMessage {
  id: string;
  team: string;
  from: string;
  text: string;
  at: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TEAM_FILE = 'team.json';
const TASKS_FILE = 'tasks.jsonl';
const MAILBOXES = 'mailboxes';

function nameProblem(what: string, name: string): string | undefined {
  if (NAME.test(name)) return undefined;
  return `${what} "${name}" is not a valid name: use 1-64 letters, digits, "_", "." or "-", starting with a letter or digit.`;
}

/**
 * The teams of one session (feature `swarms`), each a folder under `<session>/teams/<name>/`:
 * `team.json`, the shared task list `tasks.jsonl`, and a mailbox `mailboxes/<member>.jsonl` per
 * member. Mailboxes are durable: a message waits there until its member takes it.
 */
export class TeamStore implements TeamAccess {
  /** Who of a team is still running (the lead wires the running children); none by default. */
  activeMembers: (team: TeamInfo) => string[] = () => [];

  constructor(private readonly root: string) {}

  private folder(name: string): string {
    return join(this.root, name);
  }

  async create(spec: { name: string; description?: string; members?: string[] }): Promise<TeamInfo> {
    const members = [...new Set(spec.members ?? [])];
    const problem =
      nameProblem('Team', spec.name) ??
      members.map((member) => nameProblem('Member', member)).find((p) => p !== undefined);
    if (problem) throw new Error(problem);
    await fs.mkdir(this.root, { recursive: true, mode: 0o700 });
    const folder = this.folder(spec.name);
    try {
      // The folder is the claim: of two teams made with one name at once, one gets it.
      await fs.mkdir(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      throw new Error(
        `A team named "${spec.name}" exists already: pick another name, or team_delete it first.`,
      );
    }
    const team: TeamInfo = {
      name: spec.name,
      ...(spec.description ? { description: spec.description } : {}),
      members,
      createdAt: new Date().toISOString(),
      folder,
    };
    try {
      await fs.mkdir(join(folder, MAILBOXES), { mode: 0o700 });
      await fs.writeFile(join(folder, TASKS_FILE), '', { mode: 0o600 });
      const { folder: _where, ...stored } = team;
      await atomicWriteFile(join(folder, TEAM_FILE), `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    } catch (error) {
      await fs.rm(folder, { recursive: true, force: true });
      throw error;
    }
    return team;
  }

  async get(name: string): Promise<TeamInfo | undefined> {
    if (nameProblem('Team', name)) return undefined;
    const folder = this.folder(name);
    try {
      const stored = JSON.parse(await fs.readFile(join(folder, TEAM_FILE), 'utf8')) as TeamInfo;
      return { ...stored, folder };
    } catch {
      return undefined;
    }
  }

  async list(): Promise<TeamInfo[]> {
    const names = await fs.readdir(this.root).catch(() => [] as string[]);
    const teams = await Promise.all(names.sort().map((name) => this.get(name)));
    return teams.filter((team): team is TeamInfo => team !== undefined);
  }

  /** The team, or an Error naming the teams there are. */
  private async existing(name: string): Promise<TeamInfo> {
    const team = await this.get(name);
    if (team) return team;
    const names = (await this.list()).map((t) => t.name);
    throw new Error(
      `No team "${name}". Teams: ${names.length ? names.join(', ') : 'none (team_create makes one)'}.`,
    );
  }

  async delete(name: string): Promise<TeamInfo> {
    const team = await this.existing(name);
    const running = this.activeMembers(team);
    if (running.length > 0)
      throw new Error(
        `Team "${name}" still has running members: ${running.join(', ')}. Stop them first (task_stop) or wait for them to finish; nothing was deleted.`,
      );
    await fs.rm(team.folder, { recursive: true, force: true });
    return team;
  }

  /** Puts a message in the mailbox of every member, or of the one named. */
  async deliver(teamName: string, message: string, from: string, member?: string): Promise<string[]> {
    const team = await this.existing(teamName);
    if (member !== undefined && !team.members.includes(member))
      throw new Error(
        `Team "${teamName}" has no member "${member}". Members: ${team.members.join(', ') || 'none'}.`,
      );
    const to = member !== undefined ? [member] : team.members;
    if (to.length === 0) throw new Error(`Team "${teamName}" has no members: nobody would read the message.`);
    const record: TeamMessage = {
      id: `msg_${randomBytes(4).toString('hex')}`,
      team: teamName,
      from,
      text: message,
      at: new Date().toISOString(),
    };
    await Promise.all(
      to.map((name) => appendRecords(join(team.folder, MAILBOXES), `${name}.jsonl`, [record])),
    );
    return to;
  }

  /** Every message of a member's mailbox, read or not. */
  async mailbox(teamName: string, member: string): Promise<TeamMessage[]> {
    const team = await this.existing(teamName);
    return (await readRecords(join(team.folder, MAILBOXES), `${member}.jsonl`)) as TeamMessage[];
  }

  /**
   * The messages a member has not read yet, in every team it belongs to; each is handed out
   * once. What a running member is given before its next model request.
   */
  async takeUnread(member: string): Promise<TeamMessage[]> {
    const teams = (await this.list()).filter((team) => team.members.includes(member));
    const taken = await Promise.all(
      teams.map((team) => takeNewRecords(join(team.folder, MAILBOXES), `${member}.jsonl`)),
    );
    return taken.flat() as TeamMessage[];
  }

  /** Adds to (or updates an item of) the team's shared task list. */
  async recordTask(teamName: string, task: Omit<TeamTask, 'at' | 'id'> & { id?: string }): Promise<TeamTask> {
    const team = await this.existing(teamName);
    const record: TeamTask = {
      ...task,
      id: task.id ?? `tt_${randomBytes(4).toString('hex')}`,
      at: new Date().toISOString(),
    };
    await appendRecords(team.folder, TASKS_FILE, [record]);
    return record;
  }

  /** The shared task list: each item as its latest record says. */
  async tasks(teamName: string): Promise<TeamTask[]> {
    const team = await this.existing(teamName);
    const latest = new Map<string, TeamTask>();
    for (const record of (await readRecords(team.folder, TASKS_FILE)) as TeamTask[])
      latest.set(record.id, record);
    return [...latest.values()];
  }

  /** The teams as send_message recipients: a team (every member) and each `team/member`. */
  recipients(): RecipientSource {
    return {
      list: async (): Promise<Recipient[]> =>
        (await this.list()).flatMap((team) => [
          {
            kind: 'team' as const,
            name: team.name,
            id: `team:${team.name}`,
            description: `team of ${team.members.length} (${team.members.join(', ') || 'no members'})`,
          },
          ...team.members.map((member) => ({
            kind: 'team' as const,
            name: `${team.name}/${member}`,
            id: `team:${team.name}/${member}`,
            description: `the mailbox of ${member} in team ${team.name}`,
          })),
        ]),
      deliver: async (recipient, message, from) => {
        const [team, member] = recipient.id.slice('team:'.length).split('/');
        await this.deliver(team, message, from, member);
      },
    };
  }
}

/** A member's new mail as the member agent reads it, one message after another. */
export function teamMailNote(messages: readonly TeamMessage[]): string {
  const lines = messages.map((m) => `From ${m.from} to team ${m.team} (${m.at}):\n${m.text}`);
  return `New mail in your team mailbox; reply with send_message if it asks for something:\n\n${lines.join('\n\n')}`;
}
