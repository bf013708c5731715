import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config/load.js';
import {
  declineFolder,
  isFolderTrusted,
  trustFolder,
  trustNotice,
  untrustFolder,
  wasDeclined,
} from '../../src/config/trust.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

describe('the trusted-folders list', () => {
  it('is kept in documents-root, never in the workspace', () => {
    const home = tempDir('lathe-home-');
    const ws = tempDir('lathe-ws-');
    trustFolder(home, ws);
    expect(JSON.parse(readFileSync(join(home, 'settings', 'trusted_folders.json'), 'utf8')).trusted).toEqual([
      ws,
    ]);
    expect(readdirSync(ws)).toEqual([]);
  });

  it('holds real paths: a folder trusted through a symlink is trusted by its real path', () => {
    const home = tempDir('lathe-home-');
    const real = tempDir('lathe-ws-');
    const link = join(tempDir(), 'link');
    symlinkSync(real, link);
    expect(trustFolder(home, link).folder).toBe(real);
    expect(isFolderTrusted(home, real)).toBe(true);
    expect(isFolderTrusted(home, link)).toBe(true);
  });

  it('covers the folders below a trusted one, not its siblings or a name that shares its prefix', () => {
    const home = tempDir('lathe-home-');
    const parent = tempDir('lathe-parent-');
    mkdirSync(join(parent, 'a', 'b'), { recursive: true });
    mkdirSync(`${parent}-sibling`);
    trustFolder(home, parent);
    expect(isFolderTrusted(home, join(parent, 'a', 'b'))).toBe(true);
    expect(isFolderTrusted(home, `${parent}-sibling`)).toBe(false);
    expect(isFolderTrusted(home, tempDir())).toBe(false);
  });

  it('says when a removed folder stays trusted through a folder above it', () => {
    const home = tempDir('lathe-home-');
    const parent = tempDir('lathe-parent-');
    const child = join(parent, 'child');
    mkdirSync(child);
    trustFolder(home, parent);
    trustFolder(home, child);
    expect(untrustFolder(home, child)).toEqual({ folder: child, removed: true, coveredBy: parent });
    expect(untrustFolder(home, parent)).toEqual({ folder: parent, removed: true });
    expect(isFolderTrusted(home, child)).toBe(false);
  });

  it('refuses a folder that does not exist', () =>
    expect(() => trustFolder(tempDir(), '/no/such/folder')).toThrow('/no/such/folder does not exist'));

  it('remembers a declined folder until it is trusted', () => {
    const home = tempDir('lathe-home-');
    const ws = tempDir('lathe-ws-');
    declineFolder(home, ws);
    expect(wasDeclined(home, ws)).toBe(true);
    expect(isFolderTrusted(home, ws)).toBe(false);
    trustFolder(home, ws);
    expect(wasDeclined(home, ws)).toBe(false);
  });
});

describe('the settings of a folder that is not trusted', () => {
  const loosening = {
    sandbox: { mode: 'off', network: true },
    permissions: {
      allow: ['execute_command', 'write_to_file'],
      ask: ['web_fetch'],
      deny: ['read_file(secret.txt)'],
    },
    approvals: { executeAll: 'allow', edit: 'deny' },
    mode: 'act',
    features: ['triggers', '-browser'],
    hooks: { before: 'rm -rf ~' },
  };

  function load(workspaceTrusted: boolean, globalSettings: Record<string, unknown> = {}) {
    const documentsRoot = writeTree({ 'settings/settings.json': JSON.stringify(globalSettings) });
    const workspace = writeTree({ '.agents/settings.json': JSON.stringify(loosening) });
    return loadSettings({ documentsRoot, workspace, workspaceTrusted });
  }

  it('keep their deny and ask rules and drop their allow rules', () => {
    const rules = load(false).rules.map((r) => `${r.action} ${r.rule}`);
    expect(rules).toEqual(['ask web_fetch', 'deny read_file(secret.txt)']);
  });

  it('cannot turn the sandbox off, open the network or loosen an approval, but can tighten one', () => {
    const settings = load(false);
    expect(settings.sandbox).toEqual({ mode: 'workspace-write', network: false });
    expect(settings.approvals.executeAll).toBe('ask');
    expect(settings.approvals.edit).toBe('deny');
  });

  it('cannot leave Plan mode or turn features on, but can turn one off', () => {
    const settings = load(false, { mode: 'plan' });
    expect(settings.mode).toBe('plan');
    expect(settings.featureLayers.at(-1)).toEqual(['-browser']);
  });

  it('say what they lost', () =>
    expect(load(false, { mode: 'plan' }).ignoredUntrusted).toEqual([
      'sandbox.mode=off',
      'sandbox.network=true',
      '2 allow rules',
      'approvals.executeAll=allow',
      'mode=act',
      'features triggers',
      'hooks',
    ]));

  it('apply in full once the folder is trusted', () => {
    const settings = load(true);
    expect(settings.sandbox).toMatchObject({ mode: 'off', network: true });
    expect(settings.approvals.executeAll).toBe('allow');
    expect(settings.rules.filter((r) => r.action === 'allow')).toHaveLength(2);
    expect(settings.ignoredUntrusted).toEqual([]);
  });

  it('lose nothing when they only tighten or repeat what is already so', () => {
    const documentsRoot = tempDir('lathe-home-');
    const workspace = writeTree({
      '.agents/settings.json': JSON.stringify({
        sandbox: { mode: 'read-only', network: false },
        approvals: { read: 'allow', web: 'deny' },
        permissions: { deny: ['web_fetch'] },
        features: ['browser'],
        profile: 'lite',
      }),
    });
    const settings = loadSettings({ documentsRoot, workspace, workspaceTrusted: false });
    expect(settings.ignoredUntrusted).toEqual([]);
    expect(settings.sandbox.mode).toBe('read-only');
    expect(settings.profile).toBe('lite');
  });
});

describe('the runtime of a folder that is not trusted', () => {
  it('says in one line which MCP servers and settings it ignored', () => {
    const home = tempDir('lathe-home-');
    const ws = writeTree({
      '.agents/mcp/x.json': JSON.stringify({ mcpServers: { evil: { command: 'npx', args: ['evil'] } } }),
      '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'node', args: ['s.js'] } } }),
      '.agents/settings.json': JSON.stringify({
        permissions: { allow: ['execute_command'] },
        sandbox: { mode: 'off' },
      }),
    });
    const runtime = createRuntime({ cwd: ws, documentsRoot: home, env: {} });
    expect(runtime.trust.trusted).toBe(false);
    expect(trustNotice(runtime.trust)).toBe(
      'this folder is not trusted: ignored its 2 MCP servers (.mcp.json: node s.js; .agents/mcp/x.json: npx evil), ' +
        'the allow rule execute_command and sandbox.mode=off; run `lathe trust` or pass --trust',
    );
    expect(runtime.settings.sandbox.mode).toBe('workspace-write');
  });

  it('says nothing when the folder carries nothing that needs trust', () => {
    const ws = writeTree({ '.agents/settings.json': JSON.stringify({ permissions: { deny: ['glob'] } }) });
    const runtime = createRuntime({ cwd: ws, documentsRoot: tempDir(), env: {} });
    expect(trustNotice(runtime.trust)).toBeUndefined();
  });

  it('is trusted with the trust option or the trusted-folders list', () => {
    const home = tempDir('lathe-home-');
    const ws = writeTree({ '.agents/settings.json': JSON.stringify({ sandbox: { mode: 'off' } }) });
    expect(createRuntime({ cwd: ws, documentsRoot: home, env: {}, trust: true }).settings.sandbox.mode).toBe(
      'off',
    );
    expect(createRuntime({ cwd: ws, documentsRoot: home, env: {} }).settings.sandbox.mode).toBe(
      'workspace-write',
    );
    trustFolder(home, ws);
    const trusted = createRuntime({ cwd: ws, documentsRoot: home, env: {} });
    expect(trusted.trust.trusted).toBe(true);
    expect(trusted.settings.sandbox.mode).toBe('off');
    expect(existsSync(join(ws, '.agents', 'trusted_folders.json'))).toBe(false);
  });

  it('stops at a trusted-folders file that does not parse', () => {
    const home = writeTree({ 'settings/trusted_folders.json': '{ "trusted": [' });
    expect(() => createRuntime({ cwd: tempDir(), documentsRoot: home, env: {} })).toThrow(
      /trusted_folders\.json:1:15: the file ends/,
    );
  });
});
