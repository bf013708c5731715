// The fake model server in its own process, so a benchmark measures only lathe's side.
// Control over IPC: { enqueue: ScriptedTurn[] } adds turns; the first message back is the URL.
import { FakeModelServer, type ScriptedTurn } from '../test/support/fake_model_server.js';

const server = await FakeModelServer.start();
process.send?.({ url: server.baseUrl('anthropic') });
process.on('message', (message: { enqueue?: ScriptedTurn[]; close?: boolean }) => {
  if (message.enqueue) {
    server.enqueue(...message.enqueue);
    process.send?.({ enqueued: message.enqueue.length });
  }
  if (message.close) void server.close().then(() => process.exit(0));
});
