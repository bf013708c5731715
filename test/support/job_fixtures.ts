import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WireJson } from './fake_model/types.js';
import { FakeModelServer, type RecordedRequest, type ScriptedTurn } from './fake_model_server.js';
import { tempDir } from './runtime_fixtures.js';

/** A git repository with one commit (README.md) in a temp folder. */
export function jobRepo(): string {
  const dir = tempDir('lathe-job-repo-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '--quiet', '--initial-branch=main');
  writeFileSync(join(dir, 'README.md'), '# demo\n');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--quiet', '-m', 'first');
  return dir;
}

/** The job's marker in a prompt: `[job NAME]`. */
export function jobNameOf(request: RecordedRequest): string {
  const text = JSON.stringify(request.body as WireJson);
  return /\[job ([\w.-]+)\]/.exec(text)?.[1] ?? 'unknown';
}

/**
 * The `work` scenario for many jobs at once, decided from each request: a first request
 * (no tool result yet) writes `<name>.txt`; a request that carries the write's result answers
 * with a final text. `slow` holds the first reply open that long before its events (a run that
 * takes a while, for cancellation and kills).
 */
export function workTurn(options: { slowMs?: number } = {}): ScriptedTurn {
  return {
    respond: (request) => {
      const name = jobNameOf(request);
      if (request.toolResults.length === 0)
        return {
          chunkDelayMs: options.slowMs,
          toolCalls: [
            { name: 'write_to_file', input: { path: `${name}.txt`, content: `work of ${name}\n` } },
          ],
        };
      return { text: `done with ${name}` };
    },
  };
}

/** A fake model server that plays `workTurn` for every request. */
export function workServer(options: { slowMs?: number } = {}): Promise<FakeModelServer> {
  return FakeModelServer.start({ fallback: workTurn(options) });
}
