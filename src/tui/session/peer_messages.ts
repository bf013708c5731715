import { peerMessageLine, peerMessageNote } from '../../messaging/peer_note.js';
import type { PeerEventHandler } from '../../messaging/peers.js';
import type { UiStore } from '../state/store.js';

/**
 * Messages from other lathe processes (feature `peers`) come in as if typed, as scheduled prompts
 * do: run at once when the agent is idle, queued for its next step when it works.
 */
export function peerMessageHandler(
  store: UiStore,
  submit: (text: string, shown: string) => void,
): PeerEventHandler {
  return (event) => {
    if (event.kind === 'message') submit(peerMessageNote(event.message), peerMessageLine(event.message));
    else store.add({ kind: 'notice', tone: 'warn', text: event.message });
  };
}
