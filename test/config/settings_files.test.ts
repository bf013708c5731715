import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/load.js';
import { SettingsError } from '../../src/config/settings_file.js';
import { tempDir } from '../support/runtime_fixtures.js';

function places() {
  return { documentsRoot: tempDir('lathe-home-'), workspace: tempDir('lathe-ws-') };
}

function write(file: string, text: string): string {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const globalFile = (root: string) => join(root, 'settings', 'settings.json');
const workspaceFile = (ws: string) => join(ws, '.agents', 'settings.json');

function loadError(p: ReturnType<typeof places>, workspaceTrusted = true): SettingsError {
  try {
    loadSettings({ ...p, workspaceTrusted });
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('loaded');
}

describe('settings files', () => {
  it('accept JSONC: comments, trailing commas and a byte-order mark', () => {
    const p = places();
    write(
      globalFile(p.documentsRoot),
      '\uFEFF{\n  // deny secrets everywhere\n  "permissions": { "deny": ["read_file(**/.env)",], },\n  "profile": "lite",\n}\n',
    );
    const settings = loadSettings({ ...p, workspaceTrusted: true });
    expect(settings.profile).toBe('lite');
    expect(settings.rules).toContainEqual({
      rule: 'read_file(**/.env)',
      action: 'deny',
      source: globalFile(p.documentsRoot),
    });
  });

  it('that do not parse stop loading with the file, line and column', () => {
    const p = places();
    const file = write(
      workspaceFile(p.workspace),
      '{\n  "permissions": {\n    "deny": ["x"]\n    "allow": []\n  }\n}',
    );
    expect(loadError(p).message).toBe(`${file}:4:5: expected , or } after "deny"`);
  });

  it('that do not parse stop loading even in a folder that is not trusted', () => {
    const p = places();
    const file = write(workspaceFile(p.workspace), '{ "permissions": ');
    expect(loadError(p, false).message).toMatch(`${file}:1:18: the file ends where a value was expected`);
  });

  it('that hold something else than an object are an error', () => {
    const p = places();
    const file = write(globalFile(p.documentsRoot), '["deny"]');
    expect(loadError(p).message).toBe(`${file}: must hold a JSON object ({ … })`);
  });

  it('with a wrong-typed section name the file and the key', () => {
    const p = places();
    const file = write(globalFile(p.documentsRoot), JSON.stringify({ permissions: 'yes' }));
    expect(loadError(p).message).toBe(`${file}: "permissions" must be an object (found "yes")`);
  });

  it('with a wrong-typed key inside a section name the key path', () => {
    const p = places();
    const file = write(workspaceFile(p.workspace), JSON.stringify({ sandbox: { mode: 3 } }));
    expect(loadError(p).message).toBe(
      `${file}: "sandbox.mode" must be read-only, workspace-write or off (found 3)`,
    );
  });

  it('list every wrong key in the one line', () => {
    const p = places();
    write(
      globalFile(p.documentsRoot),
      JSON.stringify({
        permissions: { deny: 'read_file' },
        approvals: { edits: 'allow', web: 'yes' },
        profile: 'huge',
        sandbox: { network: 'on' },
      }),
    );
    const { message } = loadError(p);
    expect(message.split('\n')).toHaveLength(1);
    expect(message).toContain('"permissions.deny" must be a list of strings (found "read_file")');
    expect(message).toContain('"approvals.edits" is not known');
    expect(message).toContain('"approvals.web" must be allow, ask or deny (found "yes")');
    expect(message).toContain('"profile" must be standard, lite or simple (found "huge")');
    expect(message).toContain('"sandbox.network" must be true or false (found "on")');
  });

  it('leave keys lathe does not know alone', () => {
    const p = places();
    write(globalFile(p.documentsRoot), JSON.stringify({ someNewSection: { x: 1 }, sandbox: { later: 5 } }));
    expect(loadSettings({ ...p, workspaceTrusted: true }).sandbox.mode).toBe('workspace-write');
  });

  it('may be empty', () => {
    const p = places();
    write(globalFile(p.documentsRoot), '\n');
    expect(loadSettings({ ...p, workspaceTrusted: true }).rules).toEqual([]);
  });
});
