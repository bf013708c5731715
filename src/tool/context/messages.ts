/** Someone send_message can reach: a child agent, a team, or another lathe process of this user. */
export interface Recipient {
  kind: 'agent' | 'team' | 'peer';
  /** What the model writes in `to` (a child's name, a team's name, a peer's name). */
  name: string;
  id: string;
  description?: string;
}

/** A source of recipients (the children of an agent, the teams, the peers) and how to reach them. */
export interface RecipientSource {
  list(): Recipient[] | Promise<Recipient[]>;
  /** Delivers a message; throws an Error the model can act on when it cannot. */
  deliver(recipient: Recipient, message: string, from: string): Promise<void>;
}

/** What send_message needs: the roster, and delivery to one name or id on it. */
export interface MessageAccess {
  recipients(): Promise<Recipient[]>;
  /** Sends to a recipient by name or id; an unknown one is an Error listing the valid ones. */
  send(to: string, message: string): Promise<Recipient>;
}
