import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsLayer } from '../../src/config/types.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { type AppUnderTest, KEYS, renderApp } from '../tui/support/app_harness.js';
import { awkwardWorkspace, repositoryState, treeState } from './fixture.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Edits and commands run without asking; no language server starts for the edits. */
const SETTINGS: SettingsLayer = {
  approvals: { edit: 'allow', executeAll: 'allow' },
  lsp: { diagnosticsAfterEdit: false },
};

/** Every `.git` file or folder under `dir`, with what it is; a renamed one would show as missing. */
const gitEntries = (state: Record<string, string>) =>
  Object.entries(state).filter(
    ([path]) => /(^|\/)\.git[^/]*$/.test(path) && !/\.git(ignore|modules)$/.test(path),
  );

describe('/undo', () => {
  testNeeds('bwrap')(
    "takes back an edit and shell commands' changes: the tree byte-identical, the user's repositories untouched",
    async () => {
      const dir = awkwardWorkspace();
      const tree = treeState(dir);
      const repos = [dir, join(dir, 'vendor/lib'), join(dir, 'mods/sub')].map(repositoryState);
      app = await renderApp(
        [
          { toolCalls: [{ name: 'read_file', input: { path: 'keep.txt' } }] },
          {
            toolCalls: [
              {
                name: 'edit_file',
                input: { path: 'keep.txt', old_string: 'line two', new_string: 'line 2' },
              },
            ],
          },
          { toolCalls: [{ name: 'execute_command', input: { command: 'echo > new.txt' } }] },
          { toolCalls: [{ name: 'execute_command', input: { command: 'rm tracked.txt' } }] },
          {
            toolCalls: [
              {
                name: 'execute_command',
                input: { command: 'echo more >> vendor/lib/lib.txt && echo x > mods/sub/added.txt' },
              },
            ],
          },
          { text: 'Done.' },
        ],
        { dir, settings: SETTINGS },
      );
      await app.submit('change some files');
      await app.waitFor('Done.', 30_000);
      expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('line one\nline 2\n');
      expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('\n');
      expect(existsSync(join(dir, 'tracked.txt'))).toBe(false);
      expect(readFileSync(join(dir, 'vendor/lib/lib.txt'), 'utf8')).toBe('nested repository\nmore\n');

      await app.submit('/undo');
      await app.waitFor(/Undone: the files are as before "change some files"/, 30_000);
      const after = treeState(dir);
      expect(after).toEqual(tree);
      expect(gitEntries(after)).toEqual([
        ['.git', '.git folder'],
        ['mods/sub/.git', '.git file'],
        ['vendor/lib/.git', '.git folder'],
      ]);
      expect([dir, join(dir, 'vendor/lib'), join(dir, 'mods/sub')].map(repositoryState)).toEqual(repos);
    },
  );

  it('says so when no prompt changed any file', async () => {
    app = await renderApp([{ text: 'Nothing to change.' }], {
      files: { 'a.txt': 'a\n' },
      settings: SETTINGS,
    });
    await app.submit('look around');
    await app.waitFor('Nothing to change.');
    await app.submit('/undo');
    await app.waitFor('Nothing to undo: the files are as they were before every prompt here.');
  });

  it('says checkpoints are off, and why, when the settings turn them off', async () => {
    app = await renderApp([], { settings: { ...SETTINGS, checkpoints: { enabled: false } } });
    await app.submit('/undo');
    await app.waitFor('Checkpoints are off: checkpoints are off in the settings (checkpoints.enabled).');
  });
});

describe('/rewind', () => {
  testNeeds('bwrap')(
    'restores the files and cuts the conversation back to before the prompt picked',
    async () => {
      const dir = tempDir('lathe-ws-');
      writeFileSync(join(dir, 'a.txt'), 'first\n');
      app = await renderApp(
        [
          { toolCalls: [{ name: 'execute_command', input: { command: 'echo second > a.txt' } }] },
          { text: 'Changed once.' },
          {
            toolCalls: [{ name: 'execute_command', input: { command: 'echo third > a.txt && touch b.txt' } }],
          },
          { text: 'Changed twice.' },
          { text: 'Fresh start.' },
        ],
        { dir, settings: SETTINGS },
      );
      await app.submit('prompt one');
      await app.waitFor('Changed once.');
      await app.submit('prompt two');
      await app.waitFor('Changed twice.');

      await app.submit('/rewind');
      const shown = await app.waitFor('Rewind to which checkpoint?');
      const line = shown.split('\n').find((l) => l.includes('prompt: prompt one')) ?? '';
      app.write(/(\d+)\./.exec(line)?.[1] ?? 'none');
      await app.waitFor('restore what?');
      app.write(KEYS.enter);
      await app.waitFor('The conversation now ends before "prompt one".');
      expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('first\n');
      expect(existsSync(join(dir, 'b.txt'))).toBe(false);

      await app.submit('prompt three');
      await app.waitFor('Fresh start.');
      const sent = JSON.stringify(app.requests().at(-1)?.body);
      expect(sent).toContain('prompt three');
      expect(sent).not.toContain('prompt one');
      expect(sent).not.toContain('prompt two');
    },
  );
});
