// The fake model server in its own process, so a benchmark measures only lathe's side.
// Control over IPC: { enqueue: ScriptedTurn[] } adds turns; the first message back is the URL.
// With `--traffic`, each request's arrival and each reply's last byte are sent back as
// { traffic: 'request' | 'reply_end', path, at, cpuMs } — `at` is process.hrtime.bigint() as a
// string, a monotonic clock every process on the machine shares; `cpuMs` is the CPU time the
// process named by { watch: pid } has used so far (Linux), read as the request arrives.
import { readFileSync } from 'node:fs';
import { FakeModelServer, type ScriptedTurn } from '../test/support/fake_model_server.js';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;
let watched: number | undefined;

function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // The fields after the command name (which may hold spaces) start at field 3; utime and
    // stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

const traffic = process.argv.includes('--traffic');
const server = await FakeModelServer.start({
  onTraffic: traffic
    ? ({ phase, path }) =>
        process.send?.({ traffic: phase, path, at: String(process.hrtime.bigint()), cpuMs: cpuMsOf(watched) })
    : undefined,
});
process.send?.({ url: server.baseUrl('anthropic') });
process.on('message', (message: { enqueue?: ScriptedTurn[]; watch?: number; close?: boolean }) => {
  if (message.watch !== undefined) watched = message.watch;
  if (message.enqueue) {
    server.enqueue(...message.enqueue);
    process.send?.({ enqueued: message.enqueue.length });
  }
  if (message.close) void server.close().then(() => process.exit(0));
});
