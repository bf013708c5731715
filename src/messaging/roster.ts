import type { Recipient } from '../tool/context/messages.js';

/** A recipient as an error or a listing names it: `alice (agent, id agent_1a2b)`. */
export function describeRecipient(recipient: Recipient): string {
  const about = recipient.description ? `: ${recipient.description}` : '';
  return `${recipient.name} (${recipient.kind}, id ${recipient.id}${about})`;
}

/** Why nobody can be reached, naming what would add someone. */
const NOBODY =
  'no one can receive messages here: no child agent is running, no team exists (team_create, feature swarms) and no other lathe is listening (feature peers)';

/**
 * The one recipient `to` names: an id exactly, else a name (case does not matter). An unknown
 * name and a name several recipients share are Errors listing who there is, so the model can
 * pick; nothing is sent or made either way.
 */
export function resolveRecipient<R extends Recipient>(
  roster: readonly R[],
  to: string,
  problems: string[] = [],
): R {
  const wanted = to.trim();
  const byId = roster.find((r) => r.id === wanted);
  if (byId) return byId;
  const named = roster.filter((r) => r.name.toLowerCase() === wanted.toLowerCase());
  if (named.length === 1) return named[0];
  if (named.length > 1)
    throw new Error(
      `"${to}" names ${named.length} recipients: ${named.map(describeRecipient).join('; ')}. Send to one of their ids instead.`,
    );
  const unavailable = problems.length ? ` (${problems.join('; ')})` : '';
  if (roster.length === 0) throw new Error(`No recipient "${to}": ${NOBODY}${unavailable}.`);
  throw new Error(
    `No recipient "${to}". Valid recipients: ${roster.map(describeRecipient).join('; ')}${unavailable}.`,
  );
}
