import type { SubagentTag } from '../../tool/context/agents.js';
import type { Recipient, RecipientSource } from '../../tool/context/messages.js';
import type { ChildRun } from './child_run.js';

/** A child as its parent's roster knows it. */
export interface KnownChild {
  tag: SubagentTag;
  run?: ChildRun;
  status: string;
}

/**
 * An agent's children as send_message recipients (kind `agent`): by name (the description it was
 * started with) or id. A running child reads a message before its next model request; an ended
 * one cannot, and the error says how to go on with it.
 */
export function childRecipients(children: () => Iterable<KnownChild>): RecipientSource {
  return {
    list: (): Recipient[] =>
      [...children()].map(({ tag, status }) => ({
        kind: 'agent',
        name: tag.name,
        id: tag.id,
        description: `${tag.type} subagent, ${status}`,
      })),
    async deliver(recipient, message, from) {
      const child = [...children()].find((c) => c.tag.id === recipient.id);
      if (!child) throw new Error(`No child agent ${recipient.id}.`);
      if (child.status === 'waiting')
        throw new Error(
          `${recipient.id} has not started yet (it waits for a free place); send it once it runs.`,
        );
      if (child.status !== 'running' || !child.run?.notify(`Message from ${from}: ${message}`))
        throw new Error(
          `${recipient.id} is not running (${child.status}); continue it with use_subagent {resume: "${recipient.id}"} and the message as its prompt.`,
        );
    },
  };
}
