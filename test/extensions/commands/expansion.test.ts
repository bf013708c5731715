import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ExpandError } from '../../../src/config/commands/index.js';
import { expandContextOf } from '../../../src/runtime/command_expansion.js';
import { createRuntime, type Runtime } from '../../../src/runtime/create_runtime.js';
import { testNeeds } from '../../support/required_programs.js';
import { tempDir } from '../../support/runtime_fixtures.js';

// Each command format expanded against a real runtime (its `!{…}` parts are real execute_command
// calls, sandboxed), compared with the golden text in test/fixtures/commands/expected/.

const FIXTURES = fileURLToPath(new URL('../../fixtures/commands/', import.meta.url));
const golden = (name: string) => readFileSync(join(FIXTURES, 'expected', `${name}.txt`), 'utf8');

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()));
});

function workspaceRuntime(): Runtime {
  const dir = tempDir('lathe-commands-');
  cpSync(join(FIXTURES, 'workspace'), dir, { recursive: true });
  const home = tempDir('lathe-home-');
  const runtime = createRuntime({ cwd: dir, documentsRoot: home, trust: true, env: { HOME: home } });
  runtimes.push(runtime);
  return runtime;
}

async function expand(runtime: Runtime, name: string, args: string) {
  const command = runtime.commands.find(name);
  if (!command) throw new Error(`no command ${name}`);
  return command.expand(args, expandContextOf(runtime));
}

describe('golden expansions', () => {
  it('$ARGUMENTS takes the whole argument text (.agents/commands)', async () => {
    const expanded = await expand(workspaceRuntime(), 'greet', 'Ada Lovelace');
    expect(expanded.text).toBe(golden('greet'));
  });

  it('$1 and $2 take the words, quotes keeping a phrase (.claude/commands, namespaced)', async () => {
    const expanded = await expand(workspaceRuntime(), 'git:commit', 'src "fix the parser"');
    expect(expanded.text).toBe(golden('git-commit'));
    expect(expanded.allowedTools).toEqual(['execute_command(git add:*)', 'execute_command(git commit:*)']);
    expect(expanded.model).toBe('small');
  });

  it('a body with no placeholder gets the arguments after it', async () => {
    const expanded = await expand(workspaceRuntime(), 'plain', 'for the release build');
    expect(expanded.text).toBe(golden('plain'));
  });

  testNeeds('bwrap')(
    'TOML: {{args}}, !{…} with the arguments shell-quoted, and @{file} inlined',
    async () => {
      const expanded = await expand(workspaceRuntime(), 'review', 'the parser change');
      expect(expanded.text).toBe(golden('review'));
    },
  );

  it('TOML without {{args}} gets the invocation after the prompt', async () => {
    const expanded = await expand(workspaceRuntime(), 'summary', 'briefly');
    expect(expanded.text).toBe(golden('summary'));
  });

  it('a workflow gives its steps to follow, with the arguments', async () => {
    const expanded = await expand(workspaceRuntime(), 'release', 'v2.1.0');
    expect(expanded.text).toBe(golden('release'));
  });

  testNeeds('bwrap')(
    'a markdown command runs its !`command` parts and takes the arguments elsewhere',
    async () => {
      const expanded = await expand(workspaceRuntime(), 'branch', 'and the tests');
      expect(expanded.text).toBe(golden('branch'));
    },
  );
});

describe('hostile arguments never run', () => {
  const hostile = [
    '$(touch marker)',
    '; touch marker',
    '`touch marker`',
    "'; touch marker; echo '",
    '| touch marker',
  ];

  for (const args of hostile) {
    testNeeds('bwrap')(`TOML !{echo {{args}}} echoes ${args} as text`, async () => {
      const runtime = workspaceRuntime();
      const expanded = await expand(runtime, 'review', args);
      expect(expanded.text).toContain(`Echoed: ${args}`);
      expect(existsSync(join(runtime.workspace, 'marker'))).toBe(false);
    });

    testNeeds('bwrap')(`Markdown $ARGUMENTS beside a !\`command\` keeps ${args} as text`, async () => {
      const runtime = workspaceRuntime();
      const expanded = await expand(runtime, 'branch', args);
      expect(expanded.text).toContain(`the user adds: ${args}`);
      expect(existsSync(join(runtime.workspace, 'marker'))).toBe(false);
    });
  }
});

describe('@{file} refusals', () => {
  it('refuses a file outside the workspace, saying so', async () => {
    const runtime = workspaceRuntime();
    writeFileSync(join(runtime.workspace, '..', 'secret.txt'), 'secret');
    await expect(expand(runtime, 'outside', '')).rejects.toThrow(
      new ExpandError('@{../secret.txt} is outside the workspace: only files inside it can be included'),
    );
  });

  it('refuses a file that is not there, naming it', async () => {
    const runtime = workspaceRuntime();
    writeFileSync(join(runtime.workspace, '.gemini/commands/missing.toml'), 'prompt = "See @{docs/none.md}"');
    const again = createRuntime({
      cwd: runtime.workspace,
      documentsRoot: runtime.documentsRoot,
      trust: true,
    });
    runtimes.push(again);
    await expect(expand(again, 'missing', '')).rejects.toThrow('@{docs/none.md} cannot be read (ENOENT)');
  });
});
