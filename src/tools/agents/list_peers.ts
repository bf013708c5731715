import { z } from 'zod';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';

export const listPeers = buildTool({
  name: 'list_peers',
  inputSchema: lazySchema(() => z.strictObject({})),
  description:
    'List the other lathe processes of this user that can receive messages (feature peers): name, pid, folder ' +
    'and session. Message one with send_message {to: name}.',
  availability: { profiles: ['standard'], feature: 'peers' },
  kind: 'other',
  userFacingName: () => 'Peers',
  // lathe's own fact: it reads the inboxes of lathe's own processes, so Plan mode lets it run.
  planModeAllowed: true,
  async call(_input, ctx) {
    if (!ctx.peers) return { isError: true, text: 'Peers are not available here (feature peers).' };
    const peers = await ctx.peers.list();
    const self = `This lathe is ${ctx.peers.self.name} (pid ${ctx.peers.self.pid}).`;
    if (peers.length === 0) return { text: `No other lathe is listening. ${self}`, data: { peers } };
    const lines = peers.map(
      (peer) =>
        `- ${peer.name} (id peer_${peer.pid}): ${peer.cwd}, session ${peer.sessionId}, since ${peer.startedAt}`,
    );
    return { text: `${peers.length} peer(s):\n${lines.join('\n')}\n${self}`, data: { peers } };
  },
});
