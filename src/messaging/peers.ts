import { basename } from 'node:path';
import type { Recipient, RecipientSource } from '../tool/context/messages.js';
import type { PeerAccess, PeerInfo } from '../tool/context/peers.js';
import { PeerUnreachable, requestPeer } from './peer_client.js';
import { liveInboxes, removeInbox, runDir, socketPath } from './peer_directory.js';
import { PeerInbox, type PeerMessage } from './peer_inbox.js';

export type { PeerMessage } from './peer_inbox.js';

/** What a client installed with `onPeerMessage` is told: a message, or why the inbox is not there. */
export type PeerEvent = { kind: 'message'; message: PeerMessage } | { kind: 'notice'; message: string };
export type PeerEventHandler = (event: PeerEvent) => void;

export interface PeersOptions {
  documentsRoot: string;
  workspace: string;
  sessionId: string;
  /** How long a peer has to answer (default 3 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 3_000;
/** list_peers asks each inbox whether it answers, for at most this long. */
const PING_TIMEOUT_MS = 1_000;

/**
 * This lathe among the others of this user (feature `peers`): who else runs (list_peers), how to
 * message them (send_message), and, once a client listens, this process's own inbox.
 */
export class Peers implements PeerAccess {
  readonly self: { pid: number; name: string };
  private readonly dir: string;
  private readonly timeoutMs: number;
  private inbox?: PeerInbox;
  private starting?: Promise<void>;
  private handler?: PeerEventHandler;
  /** Messages that came while no client listened; the next one installed gets them. */
  private readonly held: PeerMessage[] = [];
  private disposed = false;

  constructor(private readonly options: PeersOptions) {
    this.dir = runDir(options.documentsRoot);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.self = { pid: process.pid, name: `${basename(options.workspace) || 'lathe'}-${process.pid}` };
  }

  /**
   * The other live lathe processes of this user. Inboxes of dead processes, and sockets nobody
   * listens on any more (a reused pid), are removed on the way.
   */
  async list(): Promise<PeerInfo[]> {
    const candidates = await liveInboxes(this.dir, this.self.pid);
    const answering = await Promise.all(
      candidates.map(async (peer) => {
        try {
          await requestPeer(socketPath(this.dir, peer.pid), { type: 'ping' }, PING_TIMEOUT_MS);
          return peer;
        } catch (error) {
          if (!(error instanceof PeerUnreachable && error.gone)) return peer; // busy, but alive
          await removeInbox(this.dir, peer.pid);
          return undefined;
        }
      }),
    );
    return answering.filter((peer): peer is PeerInfo => peer !== undefined);
  }

  /** Sends a message to a peer; an Error the model can act on when it does not take it. */
  async send(peer: { pid: number; name: string }, text: string): Promise<void> {
    const who = `peer ${peer.name} (pid ${peer.pid})`;
    let reply: Awaited<ReturnType<typeof requestPeer>>;
    try {
      reply = await requestPeer(
        socketPath(this.dir, peer.pid),
        {
          type: 'message',
          from: {
            pid: this.self.pid,
            name: this.self.name,
            cwd: this.options.workspace,
            sessionId: this.options.sessionId,
          },
          text,
        },
        this.timeoutMs,
      );
    } catch (error) {
      if (error instanceof PeerUnreachable && error.gone) {
        await removeInbox(this.dir, peer.pid);
        throw new Error(`${who} is no longer listening; nothing was sent. list_peers shows who is running.`);
      }
      throw new Error(
        `${who} ${(error as Error).message}; the message may not have arrived. It may be busy: try again later, or message another peer.`,
      );
    }
    if (!reply.ok) throw new Error(`${who} refused the message: ${reply.error}`);
  }

  /** The peers as send_message recipients. */
  recipients(): RecipientSource {
    return {
      list: async (): Promise<Recipient[]> =>
        (await this.list()).map((peer) => ({
          kind: 'peer' as const,
          name: peer.name,
          id: `peer_${peer.pid}`,
          description: `lathe pid ${peer.pid} in ${peer.cwd}`,
        })),
      // A peer knows this process by its own name, whoever in it sends.
      deliver: async (recipient, message) => {
        const pid = Number(recipient.id.slice('peer_'.length));
        await this.send({ pid, name: recipient.name }, message);
      },
    };
  }

  /**
   * Installs the client's handler of incoming messages and opens the inbox (once). Returns the
   * function that removes the handler; messages then wait for the next one.
   */
  listen(handler: PeerEventHandler): () => void {
    this.handler = handler;
    for (const message of this.held.splice(0)) handler({ kind: 'message', message });
    if (!this.starting && !this.disposed) {
      const info: PeerInfo = {
        pid: this.self.pid,
        name: this.self.name,
        cwd: this.options.workspace,
        sessionId: this.options.sessionId,
        startedAt: new Date().toISOString(),
      };
      const inbox = new PeerInbox(this.dir, info, (message) => this.receive(message));
      this.starting = inbox.start().then(
        () => {
          this.inbox = inbox;
        },
        (error: Error) => this.handler?.({ kind: 'notice', message: `peers: no inbox: ${error.message}` }),
      );
    }
    return () => {
      if (this.handler === handler) this.handler = undefined;
    };
  }

  /** Settles once the inbox listens (or failed to); for callers that must know. */
  ready(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  private receive(message: PeerMessage): void {
    if (this.handler) this.handler({ kind: 'message', message });
    else this.held.push(message);
  }

  /** Closes the inbox and removes its files. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.starting;
    const inbox = this.inbox;
    this.inbox = undefined;
    await inbox?.close();
  }
}
