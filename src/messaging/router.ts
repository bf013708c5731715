import type { MessageAccess, Recipient, RecipientSource } from '../tool/context/messages.js';
import { resolveRecipient } from './roster.js';

type Routed = Recipient & { source: RecipientSource };

/**
 * send_message's roster and delivery: the recipients of every source (the children of an agent,
 * the teams, the peers), one name or id resolved against all of them at once, so a name two
 * sources share is caught rather than sent to whichever came first.
 */
export class MessageRouter implements MessageAccess {
  private readonly sources = new Set<RecipientSource>();

  /** `sender`: how this agent signs its messages (its peer name, or `lead`). */
  constructor(private readonly sender: () => string) {}

  /** Adds a source of recipients; returns the function that removes it again. */
  addSource(source: RecipientSource): () => void {
    this.sources.add(source);
    return () => {
      this.sources.delete(source);
    };
  }

  async recipients(): Promise<Recipient[]> {
    return (await this.roster()).routed.map(({ source: _source, ...recipient }) => recipient);
  }

  async send(to: string, message: string): Promise<Recipient> {
    return this.sendAs(this.sender(), to, message);
  }

  /** The same roster, with what is sent signed by another agent of the tree (a child, by its name). */
  signedAs(sender: string): MessageAccess {
    return {
      recipients: () => this.recipients(),
      send: (to, message) => this.sendAs(sender, to, message),
    };
  }

  private async sendAs(sender: string, to: string, message: string): Promise<Recipient> {
    const { routed, problems } = await this.roster();
    const { source, ...recipient } = resolveRecipient(routed, to, problems);
    await source.deliver(recipient, message, sender);
    return recipient;
  }

  /** Every source's recipients; a source that cannot list them is a problem named in errors. */
  private async roster(): Promise<{ routed: Routed[]; problems: string[] }> {
    const problems: string[] = [];
    const lists = await Promise.all(
      [...this.sources].map(async (source) => {
        try {
          return (await source.list()).map((recipient) => ({ ...recipient, source }));
        } catch (error) {
          problems.push((error as Error).message);
          return [];
        }
      }),
    );
    return { routed: lists.flat(), problems };
  }
}
