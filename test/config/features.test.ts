import { describe, expect, it } from 'vitest';
import { resolveFeatures } from '../../src/config/features.js';

describe('resolveFeatures', () => {
  it('has browser and subagents on by default, nothing else', () =>
    expect([...resolveFeatures({})].sort()).toEqual(['browser', 'subagents']));
  it('turns on features listed in settings', () =>
    expect(resolveFeatures({ settingsLayers: [['web', 'tasks']] }).has('web')).toBe(true));
  it('takes the object form of settings, false switching off', () =>
    expect(resolveFeatures({ settingsLayers: [{ browser: false, web: true }] }).has('browser')).toBe(false));
  it('reads LATHE_FEATURES with -name to turn off', () => {
    const f = resolveFeatures({ env: 'web,-subagents' });
    expect(f.has('web')).toBe(true);
    expect(f.has('subagents')).toBe(false);
  });
  it('lets the command line win over settings and the environment', () => {
    const f = resolveFeatures({ settingsLayers: [['web']], env: '-lsp', enable: ['lsp'], disable: ['web'] });
    expect(f.has('lsp')).toBe(true);
    expect(f.has('web')).toBe(false);
  });
  it('lets the workspace layer win over the global one', () =>
    expect(resolveFeatures({ settingsLayers: [['web'], { web: false }] }).has('web')).toBe(false));
});
