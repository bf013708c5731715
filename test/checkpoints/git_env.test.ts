import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../src/checkpoints/index.js';
import { tempDir } from '../support/runtime_fixtures.js';

/** A git on PATH that notes each call's subcommand and the malloc setting it was given. */
function notingGit(env: NodeJS.ProcessEnv = process.env): { env: NodeJS.ProcessEnv; noted: () => string[] } {
  const bin = tempDir('lathe-git-shim-');
  const log = join(bin, 'calls.log');
  writeFileSync(log, '');
  const shim = join(bin, 'git');
  writeFileSync(
    shim,
    `#!/bin/sh\nfor a in "$@"; do case "$a" in -*|*=*) ;; *) echo "$a \${MALLOC_TRIM_THRESHOLD_:-unset}" >> '${log}'; break;; esac; done\nexec /usr/bin/git "$@"\n`,
  );
  chmodSync(shim, 0o755);
  return {
    env: { ...env, PATH: `${bin}:${process.env.PATH}` },
    noted: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
  };
}

async function snapshotWith(env: NodeJS.ProcessEnv): Promise<void> {
  const dir = tempDir('lathe-plain-');
  for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
  const store = new CheckpointStore({
    workspace: dir,
    documentsRoot: tempDir('lathe-home-'),
    keep: 100,
    maxAgeDays: 30,
    env,
  });
  try {
    await store.take({ kind: 'call', label: 'first' });
  } finally {
    await store.close();
  }
}

describe("the shadow repository's git processes", () => {
  // fast-import frees a compression buffer after each blob: at glibc's default the heap's end
  // moves with each one, and a first snapshot of 100,000 files spent minutes in those calls.
  it('run with malloc keeping freed memory rather than giving it back after each blob', async () => {
    const git = notingGit();
    await snapshotWith(git.env);
    expect(git.noted()).toEqual([`fast-import ${64 * 1024 * 1024}`]);
  });

  it("keep the caller's own malloc setting", async () => {
    const git = notingGit({ ...process.env, MALLOC_TRIM_THRESHOLD_: '4096' });
    await snapshotWith(git.env);
    expect(git.noted()).toEqual(['fast-import 4096']);
  });
});
