import { peerMessageLine, peerMessageNote } from '../messaging/peer_note.js';
import type { PeerEvent } from '../messaging/peers.js';

/**
 * What a headless run does with messages from other lathe processes (feature `peers`): each is
 * shown on stderr and handed to `deliver` as a note for the agent's next model request.
 */
export function headlessPeerHandler(
  report: (line: string) => void,
  deliver: (note: string) => void,
): (event: PeerEvent) => void {
  return (event) => {
    if (event.kind === 'notice') {
      report(event.message);
      return;
    }
    report(peerMessageLine(event.message));
    deliver(peerMessageNote(event.message));
  };
}
