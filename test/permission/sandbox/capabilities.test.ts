import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeSandbox, probeSandbox } from '../../../src/permission/sandbox/bubblewrap.js';
import { needs } from '../../support/required_programs.js';
import { runSandboxed, sandboxFor, sharedDir, USERS } from './users.js';

/** Outside every temp folder (those are private inside), reachable by nobody. */
const outside = sharedDir('lathe-sbx-outside-', existsSync('/var/lib') ? '/var/lib' : undefined);
afterAll(() => rmSync(outside, { recursive: true, force: true }));

needs('bwrap').each(USERS)('capabilities inside the sandbox, as $name', (user) => {
  it.skipIf(user.unavailable)(
    'a command holds none and cannot remount the read-only root writable',
    async () => {
      const sandbox = sandboxFor(user, { workspace: sharedDir('lathe-sbx-ws-') });
      const r = await runSandboxed(
        sandbox,
        `grep CapEff /proc/self/status; mount -o remount,bind,rw / ; mount -o remount,rw /etc ; echo escaped > ${outside}/escaped.txt`,
      );
      expect(r.stdout).toMatch(/^CapEff:\s+0+$/m);
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
    },
  );

  it.skipIf(user.unavailable)(
    'describeSandbox reports it active, capabilities dropped, in a user namespace',
    async () => {
      const description = await describeSandbox({
        mode: 'workspace-write',
        network: false,
        workspace: sharedDir('lathe-sbx-ws-'),
        documentsRoot: sharedDir('lathe-home-'),
        bwrapPath: user.bwrapPath,
      });
      expect(description).toEqual({
        active: true,
        reason: undefined,
        mode: 'workspace-write',
        network: false,
        capabilitiesDropped: true,
        userNamespace: true,
      });
    },
  );
});

needs('bwrap')('a bubblewrap that leaves capabilities in place', () => {
  // Only root has capabilities to keep: as nobody there is nothing to leave in place.
  it.skipIf(process.getuid?.() !== 0)('counts as not working, with the reason', async () => {
    // A launcher that drops --cap-drop ALL and --unshare-user, as a bubblewrap ignoring them would.
    const dir = sharedDir('lathe-bwrap-caps-');
    writeFileSync(
      join(dir, 'bwrap'),
      `#!/bin/bash
args=()
skip=0
for a in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$a" in --cap-drop) skip=1 ;; --unshare-user) ;; *) args+=("$a") ;; esac
done
exec bwrap "\${args[@]}"
`,
      { mode: 0o755 },
    );
    const policy = {
      mode: 'workspace-write' as const,
      network: false,
      workspace: sharedDir('lathe-sbx-ws-'),
      documentsRoot: sharedDir('lathe-home-'),
      bwrapPath: join(dir, 'bwrap'),
    };
    const status = await probeSandbox(policy);
    expect(status.active).toBe(false);
    expect(status.active === false && status.reason).toMatch(/keeps capabilities/);
    expect(await describeSandbox(policy)).toMatchObject({ active: false, capabilitiesDropped: false });
  });
});
