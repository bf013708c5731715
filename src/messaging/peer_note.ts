import type { PeerMessage } from './peer_inbox.js';

/** A peer's message as the agent reads it: who sent it and from where, then the text. */
export function peerMessageNote(message: PeerMessage): string {
  const { from } = message;
  const where = from.cwd ? `, working in ${from.cwd}` : '';
  return `Message from peer ${from.name} (another lathe, pid ${from.pid}${where}); answer with send_message {to: "${from.name}"} if it asks for something:\n\n${message.text}`;
}

/** The same, in one line for people (a UI entry, a line on stderr). */
export function peerMessageLine(message: PeerMessage): string {
  return `(from peer ${message.from.name}) ${message.text}`;
}
