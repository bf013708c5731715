import { join } from 'node:path';
import { type PeerEventHandler, Peers } from './peers.js';
import { MessageRouter } from './router.js';
import { TeamMembers } from './team_members.js';
import { TeamStore } from './team_store.js';

export interface MessagingOptions {
  documentsRoot: string;
  workspace: string;
  sessionId: string;
  sessionDir: string;
  features: ReadonlySet<string>;
}

/**
 * A runtime's messaging: the router send_message uses, with the teams (feature `swarms`) and the
 * peers (feature `peers`) as sources; other sources (an agent's children) are added later with
 * `router.addSource`. Nothing listens or touches disk until used.
 */
export class Messaging {
  readonly router = new MessageRouter(() => 'lead');
  readonly teams?: TeamStore;
  /** Which team members run now, and their mail (feature `swarms`). */
  readonly teamMembers?: TeamMembers;
  readonly peers?: Peers;

  constructor(options: MessagingOptions) {
    if (options.features.has('swarms')) {
      this.teams = new TeamStore(join(options.sessionDir, 'teams'));
      this.router.addSource(this.teams.recipients());
      this.teamMembers = new TeamMembers(this.teams);
    }
    if (options.features.has('peers')) {
      this.peers = new Peers(options);
      this.router.addSource(this.peers.recipients());
    }
  }

  /**
   * Installs the client's handler of messages from peers and opens this process's inbox (feature
   * `peers`; without it, nothing happens). Returns the function that removes the handler.
   */
  onPeerMessage(handler: PeerEventHandler): () => void {
    return this.peers?.listen(handler) ?? (() => undefined);
  }

  async dispose(): Promise<void> {
    await this.peers?.dispose();
  }
}
