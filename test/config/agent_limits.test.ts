import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/load.js';
import { mergeSettings } from '../../src/config/settings.js';
import { tempDir } from '../support/runtime_fixtures.js';

function settingsFiles(global: unknown, workspace?: unknown) {
  const documentsRoot = tempDir('lathe-home-');
  const ws = tempDir('lathe-ws-');
  mkdirSync(join(documentsRoot, 'settings'), { recursive: true });
  writeFileSync(join(documentsRoot, 'settings', 'settings.json'), JSON.stringify(global));
  if (workspace !== undefined) {
    mkdirSync(join(ws, '.agents'), { recursive: true });
    writeFileSync(join(ws, '.agents', 'settings.json'), JSON.stringify(workspace));
  }
  return { documentsRoot, workspace: ws };
}

describe('settings agents', () => {
  it('default to 4 at once, depth 2, 50 turns, 1M tokens and 30 min per child, 3M tokens and 2 h for all', () => {
    expect(mergeSettings([]).agents).toEqual({
      concurrency: 4,
      maxDepth: 2,
      maxTurns: 50,
      maxTokens: 1_000_000,
      maxMs: 1_800_000,
      tree: { maxTokens: 3_000_000, maxMs: 7_200_000 },
    });
  });

  it('take whole numbers and seconds, a later layer winning key by key', () => {
    const agents = mergeSettings([
      { source: 'global', settings: { agents: { concurrency: 8, maxSeconds: 60, tree: { maxTokens: 10 } } } },
      { source: 'workspace', settings: { agents: { maxDepth: 0, maxSeconds: 1.5 } } },
    ]).agents;
    expect(agents).toMatchObject({ concurrency: 8, maxDepth: 0, maxMs: 1_500, tree: { maxTokens: 10 } });
  });

  it('stop loading on a value of the wrong type, naming the file and key', () => {
    const places = settingsFiles({ agents: { concurrency: 0, tree: { maxSeconds: 'long' } } });
    expect(() => loadSettings({ ...places, workspaceTrusted: true })).toThrow(
      /settings\.json: "agents\.concurrency" must be a whole number of at least 1 \(found 0\); "agents\.tree\.maxSeconds" must be a positive number of seconds \(found "long"\)/,
    );
  });

  it('from a folder that is not trusted, may lower the limits but not raise them', () => {
    const lowered = loadSettings({
      ...settingsFiles({}, { agents: { maxDepth: 1, concurrency: 2 } }),
      workspaceTrusted: false,
    });
    expect(lowered.agents).toMatchObject({ maxDepth: 1, concurrency: 2 });
    const raised = loadSettings({
      ...settingsFiles({}, { agents: { concurrency: 64, tree: { maxTokens: 1e9 } } }),
      workspaceTrusted: false,
    });
    expect(raised.agents).toMatchObject({ concurrency: 4, tree: { maxTokens: 3_000_000 } });
    expect(raised.ignoredUntrusted).toEqual(['agents.concurrency=64', 'agents.tree.maxTokens=1000000000']);
  });
});
