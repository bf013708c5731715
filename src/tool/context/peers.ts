/** Another running lathe process of this user, reachable through its socket inbox (feature `peers`). */
export interface PeerInfo {
  pid: number;
  /** What send_message takes in `to` (ids are `peer_<pid>`). */
  name: string;
  cwd: string;
  sessionId: string;
  /** ISO time the process started listening. */
  startedAt: string;
}

/** What list_peers needs. */
export interface PeerAccess {
  /** The other live lathe processes of this user; stale inboxes (dead pid) are removed on the way. */
  list(): Promise<PeerInfo[]>;
  /** This process as peers see it. */
  readonly self: { pid: number; name: string };
}
