import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readFileTail } from '../../util/file_tail.js';
import { resultView } from '../render/tool_facts.js';
import type { UiStore } from '../state/store.js';
import './tool_catalogue.js';

const POLL_MS = 250;
const TAIL_BYTES = 4096;
const TAIL_LINES = 4;

/**
 * The live tail of running shell commands. `execute_command` streams each command's output to
 * `<session>/commands/<id>.log` as it arrives; while a command runs, the newest log started
 * after it is read from its end every quarter second and shown under its tool line.
 */
export class CommandTail {
  private timer: NodeJS.Timeout | undefined;
  /** Tool call id → its log file, once found. */
  private readonly files = new Map<string, string>();

  constructor(
    private readonly store: UiStore,
    private readonly sessionDir: () => string,
  ) {}

  /** Polls while any shell command runs; stops by itself when none does. */
  watch(): void {
    this.timer ??= setInterval(() => this.poll(), POLL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.files.clear();
  }

  private poll(): void {
    const running = this.store.runningTools().filter((t) => resultView(t.name) === 'tail');
    if (running.length === 0) {
      this.stop();
      return;
    }
    for (const id of [...this.files.keys()]) if (!running.some((t) => t.id === id)) this.files.delete(id);
    const claimed = new Set(this.files.values());
    const fresh = this.logsSince(Math.min(...running.map((t) => t.startedAt ?? Date.now())) - 1000).filter(
      (f) => !claimed.has(f.path),
    );
    for (const tool of running) {
      if (!this.files.has(tool.id)) {
        const file = fresh.find((f) => f.created >= (tool.startedAt ?? 0) - 1000);
        if (!file) continue;
        fresh.splice(fresh.indexOf(file), 1);
        this.files.set(tool.id, file.path);
      }
      const tail = readTail(this.files.get(tool.id)!);
      if (tail.join('\n') !== (tool.tail ?? []).join('\n')) this.store.updateTool(tool.id, { tail });
    }
  }

  private logsSince(since: number): Array<{ path: string; created: number }> {
    const dir = join(this.sessionDir(), 'commands');
    try {
      return readdirSync(dir)
        .filter((name) => name.endsWith('.log'))
        .map((name) => {
          const path = join(dir, name);
          const stat = statSync(path);
          return { path, created: stat.birthtimeMs || stat.ctimeMs };
        })
        .filter((f) => f.created >= since)
        .sort((a, b) => a.created - b.created);
    } catch {
      return [];
    }
  }
}

function readTail(path: string): string[] {
  return readFileTail(path, TAIL_BYTES)
    .text.split(/\r?\n|\r/)
    .filter((line) => line.trim() !== '')
    .slice(-TAIL_LINES);
}
