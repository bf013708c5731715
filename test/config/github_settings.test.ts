import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/load.js';
import { mergeSettings } from '../../src/config/settings.js';
import { tempDir } from '../support/runtime_fixtures.js';

function settingsFiles(global: unknown, workspace: unknown) {
  const documentsRoot = tempDir('lathe-home-');
  const ws = tempDir('lathe-ws-');
  mkdirSync(join(documentsRoot, 'settings'), { recursive: true });
  writeFileSync(join(documentsRoot, 'settings', 'settings.json'), JSON.stringify(global));
  mkdirSync(join(ws, '.agents'), { recursive: true });
  writeFileSync(join(ws, '.agents', 'settings.json'), JSON.stringify(workspace));
  return { documentsRoot, workspace: ws };
}

describe('settings github', () => {
  it('default to port 7392 and no secret', () => {
    expect(mergeSettings([]).github).toEqual({ webhookPort: 7392 });
  });

  it('stop loading on a port or secret that cannot work, naming the file and key', () => {
    const places = settingsFiles({ github: { webhookPort: 70000, webhookSecret: 'short' } }, {});
    expect(() => loadSettings({ ...places, workspaceTrusted: true })).toThrow(
      /settings\.json: "github\.webhookPort" must be a port number from 0 \(any free port\) to 65535; "github\.webhookSecret" must be a string of at least 8 characters/,
    );
  });

  it('from a folder that is not trusted, cannot set the secret or the port', () => {
    const places = settingsFiles(
      { github: { webhookSecret: 'the-users-secret' } },
      { github: { webhookPort: 0, webhookSecret: 'a-known-secret' } },
    );
    const untrusted = loadSettings({ ...places, workspaceTrusted: false });
    expect(untrusted.github).toEqual({ webhookPort: 7392, webhookSecret: 'the-users-secret' });
    expect(untrusted.ignoredUntrusted).toContain('github');
    expect(loadSettings({ ...places, workspaceTrusted: true }).github).toEqual({
      webhookPort: 0,
      webhookSecret: 'a-known-secret',
    });
  });
});
