// The fake model server of the long-run benchmark, in its own process: each model request reads
// the next lines of notes.txt until request ROUNDS answers; a compaction's summary request gets a
// summary. Tokens are counted from each request, so the context fills up and is compacted as a
// provider's counts would make it. The first message back is the URL; { close: true } ends it.
import { FakeModelServer } from '../test/support/fake_model_server.js';

const ROUNDS = Number(process.argv[2]) || 500;
let round = 0;
const server = await FakeModelServer.start({
  countTokens: true,
  fallback: {
    respond: (request) => {
      if (request.systemText?.startsWith('Summarise this coding session'))
        return { text: `Summary: read notes.txt in steps of 20 lines, ${round} times so far.` };
      round++;
      if (round >= ROUNDS) return { text: `read it all in ${round} rounds` };
      return {
        toolCalls: [
          { name: 'read_file', input: { path: 'notes.txt', offset: ((round * 20) % 2_000) + 1, limit: 20 } },
        ],
      };
    },
  },
});
// The recorded requests would grow this process without end; none is read.
setInterval(() => server.requests.splice(0), 1_000).unref();
process.send?.({ url: server.baseUrl('anthropic') });
process.on('message', (message: { close?: boolean }) => {
  if (message.close) void server.close().then(() => process.exit(0));
});
