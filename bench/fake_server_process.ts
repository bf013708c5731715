// The fake model server in a process of its own (fake_server_child.ts), driven over IPC: a
// benchmark then measures only lathe's side. With `traffic`, the server tells the time of each
// request and reply end, and the watched process's CPU time at each request.
import { type ChildProcess, fork } from 'node:child_process';
import type { ScriptedTurn } from '../test/support/fake_model_server.js';

export interface Traffic {
  traffic: 'request' | 'reply_end';
  path: string;
  at: bigint;
  /** lathe's CPU time so far (user + system, all its threads), in 10 ms steps. */
  cpuMs?: number;
}

/** The fake server in a child process, telling the time of each request and reply end. */
export interface TimedServer {
  url: string;
  enqueue(turns: ScriptedTurn[]): Promise<void>;
  /** Has the server read this process's CPU time as each request arrives. */
  watch(pid: number): void;
  /** Forgets what was seen so far; the next run's traffic starts afresh. */
  takeTraffic(): Traffic[];
  close(): void;
}

/** The environment a built lathe runs in against the server: its own home, Anthropic at the server. */
export function latheEnv(server: TimedServer, home: string): NodeJS.ProcessEnv {
  return { ...process.env, LATHE_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'bench' };
}

export function startServer(options: { traffic?: boolean } = {}): Promise<TimedServer> {
  const child: ChildProcess = fork(
    new URL('./fake_server_child.ts', import.meta.url),
    options.traffic ? ['--traffic'] : [],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let seen: Traffic[] = [];
  let enqueued: (() => void) | undefined;
  return new Promise((ready) => {
    child.on(
      'message',
      (message: {
        url?: string;
        enqueued?: number;
        traffic?: Traffic['traffic'];
        path?: string;
        at?: string;
        cpuMs?: number;
      }) => {
        if (message.traffic && message.at && message.path)
          seen.push({
            traffic: message.traffic,
            path: message.path,
            at: BigInt(message.at),
            cpuMs: message.cpuMs,
          });
        else if (message.enqueued !== undefined) enqueued?.();
        else if (message.url)
          ready({
            url: message.url,
            enqueue: (turns) =>
              new Promise((done) => {
                enqueued = done;
                child.send({ enqueue: turns });
              }),
            watch: (pid) => child.send({ watch: pid }),
            takeTraffic: () => {
              const taken = seen;
              seen = [];
              return taken;
            },
            close: () => child.send({ close: true }),
          });
      },
    );
  });
}
