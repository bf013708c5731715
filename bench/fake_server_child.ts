// The fake model server in its own process, so a benchmark measures only lathe's side.
// Control over IPC: { enqueue: ScriptedTurn[] } adds turns; the first message back is the URL.
// With `--traffic`, each request's arrival and each reply's last byte are sent back as
// { traffic: 'request' | 'reply_end', path, at } — `at` is process.hrtime.bigint() as a string,
// a monotonic clock every process on the machine shares.
import { FakeModelServer, type ScriptedTurn } from '../test/support/fake_model_server.js';

const traffic = process.argv.includes('--traffic');
const server = await FakeModelServer.start({
  onTraffic: traffic
    ? ({ phase, path }) => process.send?.({ traffic: phase, path, at: String(process.hrtime.bigint()) })
    : undefined,
});
process.send?.({ url: server.baseUrl('anthropic') });
process.on('message', (message: { enqueue?: ScriptedTurn[]; close?: boolean }) => {
  if (message.enqueue) {
    server.enqueue(...message.enqueue);
    process.send?.({ enqueued: message.enqueue.length });
  }
  if (message.close) void server.close().then(() => process.exit(0));
});
