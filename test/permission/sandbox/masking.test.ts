import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeSettings } from '../../../src/config/settings.js';
import { RulePermissionEngine } from '../../../src/permission/engine.js';
import { filesToMask } from '../../../src/permission/sandbox/masking.js';
import { createRuntime } from '../../../src/runtime/create_runtime.js';
import { pathRuleTools } from '../../../src/tool/kinds.js';
import { builtinTools } from '../../../src/tools/index.js';
import { needs, testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';
import { runSandboxed, sandboxFor, sharedDir, USERS, writeShared } from './users.js';

const SECRETS = {
  '.env': 'TOKEN=top-secret\n',
  'app/.env': 'TOKEN=nested-secret\n',
  'app/main.js': 'console.log(1)\n',
};
// The names are spelled so that no parsed argument names a denied file: only the mask stops them.
const READ_ALL = 'for f in .e* app/.e* app/*.js; do echo "== $f"; cat "$f"; done';

function engineDenying(workspace: string, rules: string[]): RulePermissionEngine {
  return new RulePermissionEngine({
    settings: mergeSettings([{ source: 'test', settings: { permissions: { deny: rules } } }]),
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    cwd: workspace,
    pathRuleTools: pathRuleTools(builtinTools()),
  });
}

describe('read-deny rules as masks', () => {
  it('take the path patterns of deny rules on reading, nothing else', () => {
    const engine = engineDenying(tempDir(), ['read_file(**/.env)', 'write_to_file(secrets/**)', 'read_file']);
    expect(engine.readDenyPatterns()).toEqual(['**/.env']);
  });

  it('expand to the existing files that match, at their real paths', async () => {
    const workspace = sharedDir('lathe-sbx-ws-');
    writeShared(workspace, { ...SECRETS, 'keys/a.pem': 'k', 'keys/b.txt': 'b' });
    const masked = await filesToMask(['**/.env', 'keys/*.pem'], workspace);
    expect(masked.sort()).toEqual(
      [join(workspace, '.env'), join(workspace, 'app', '.env'), join(workspace, 'keys', 'a.pem')].sort(),
    );
    expect(await filesToMask([], workspace)).toEqual([]);
  });

  testNeeds('bwrap')(
    'a command run by execute_command reads a denied file as empty (rule in settings)',
    async () => {
      const workspace = sharedDir('lathe-sbx-ws-');
      writeShared(workspace, SECRETS);
      const rt = createRuntime({
        cwd: workspace,
        documentsRoot: tempDir('lathe-home-'),
        env: {},
        yolo: true,
        settings: { permissions: { deny: ['read_file(**/.env)'] } },
      });
      const r = await rt.runTool('execute_command', { command: READ_ALL });
      expect(r.isError).toBe(false);
      expect(r.text).toContain('console.log(1)');
      expect(r.text).not.toMatch(/secret/);
      expect(readFileSync(join(workspace, '.env'), 'utf8')).toBe('TOKEN=top-secret\n');
      await rt.dispose();
    },
  );
});

needs('bwrap').each(USERS)('masked files, as $name', (user) => {
  it.skipIf(user.unavailable)('read as empty and cannot be written', async () => {
    const workspace = sharedDir('lathe-sbx-ws-');
    writeShared(workspace, SECRETS);
    const engine = engineDenying(workspace, ['read_file(**/.env)']);
    const sandbox = sandboxFor(user, { workspace, readDenied: () => engine.readDenyPatterns() });
    const r = await runSandboxed(sandbox, `${READ_ALL}; echo leaked > .env`);
    expect(r.stdout).toBe('== .env\n== app/.env\n== app/main.js\nconsole.log(1)\n');
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(workspace, '.env'), 'utf8')).toBe('TOKEN=top-secret\n');
    sandbox.dispose();
  });
});
