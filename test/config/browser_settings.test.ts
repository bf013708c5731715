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

describe('settings browser, images and web.allow', () => {
  it('default to an isolated browser at 1280×800, no image model and nothing allowed', () => {
    const resolved = mergeSettings([]);
    expect(resolved.browser).toEqual({ mode: 'isolated', viewport: { width: 1280, height: 800 } });
    expect(resolved.images).toEqual({});
    expect(resolved.web.allow).toEqual([]);
  });

  it('stop loading on a value of the wrong type, naming the file and key', () => {
    const places = settingsFiles({ browser: { mode: 'remote' }, images: { model: 'gpt-image-1' } }, {});
    expect(() => loadSettings({ ...places, workspaceTrusted: true })).toThrow(
      /settings\.json: "browser\.mode" must be isolated, persistent, cdp; "images\.model" must be provider\/model/,
    );
  });

  it('from a folder that is not trusted, cannot name a browser, an image model or more addresses', () => {
    const places = settingsFiles(
      { web: { allow: ['10.0.0.0/8'] } },
      {
        browser: { executablePath: '/tmp/evil' },
        images: { model: 'openai/gpt-image-1' },
        web: { allow: ['169.254.169.254'] },
      },
    );
    const settings = loadSettings({ ...places, workspaceTrusted: false });
    expect(settings.browser.executablePath).toBeUndefined();
    expect(settings.images.model).toBeUndefined();
    expect(settings.web.allow).toEqual(['10.0.0.0/8']);
    expect(settings.ignoredUntrusted).toEqual(expect.arrayContaining(['web.allow', 'browser', 'images']));
    const trusted = loadSettings({ ...places, workspaceTrusted: true });
    expect(trusted.browser.executablePath).toBe('/tmp/evil');
    expect(trusted.web.allow).toEqual(['10.0.0.0/8', '169.254.169.254']);
  });
});
