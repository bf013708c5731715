import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { globalSettingsPath, keybindingsPath } from '../../src/config/paths.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter } from './support/lathe_terminal.js';

// The built `lathe` in a real terminal (tmux): the user's keybindings file and theme setting.

const start = latheStarter();

/** A colour in an SGR sequence (30–38, 40–48, 90–107; 39 and 49 are the defaults, no colour). */
const COLOR_CODE = /\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]+)*m/;

function homeWith(files: Record<string, unknown>): string {
  const home = tempDir('lathe-home-');
  mkdirSync(join(home, 'settings'), { recursive: true });
  for (const [path, value] of Object.entries(files))
    writeFileSync(path.replace('HOME', home), JSON.stringify(value));
  return home;
}

describe('keybindings and themes in a terminal', () => {
  it('runs an action on the key the file gives it; a bad entry is one line and keeps its default', async () => {
    const home = homeWith({ [keybindingsPath('HOME')]: { cycleMode: 'ctrl+y', expand: 'ctrl+oops' } });
    const { term } = await start([], { home, size: { width: 240, height: 30 } });
    const screen = await term.waitFor('"expand": "ctrl+oops"', { visible: true });
    const row = screen.split('\n').find((line) => line.includes('"expand"')) ?? '';
    expect(row).toContain(`${keybindingsPath(home)}: "expand": "ctrl+oops": "oops" is not a key`);
    expect(row.trimEnd()).toMatch(/it keeps its default keys \(ctrl\+o\)$/);
    // Shift+Tab no longer cycles the mode: the file moved that to Ctrl+Y.
    term.press('BTab');
    term.type('x');
    const typed = await term.waitFor('› x', { visible: true });
    expect(typed).not.toContain('edits approved');
    term.press('C-y');
    await term.waitFor('edits approved', { visible: true });
  });

  it('draws in the theme the settings name, and /theme plain drops every colour', async () => {
    const home = homeWith({ [globalSettingsPath('HOME')]: { theme: 'light' } });
    const { term } = await start([], { home });
    // The theme applies once the session has read the settings.
    await term.waitFor(' · standard · ', { visible: true });
    term.press('BTab');
    await term.waitFor('edits approved', { visible: true });
    const lastRows = () => term.screenWithStyles().trimEnd().split('\n').slice(-3).join('\n');
    // The light theme's green, a 256-colour tone, not the 16-colour one.
    expect(lastRows()).toContain('38;5;28');
    term.type('/theme plain');
    term.press('Enter');
    await term.waitFor('Theme: plain', { visible: true });
    expect(lastRows()).toContain('edits approved');
    expect(lastRows()).not.toMatch(COLOR_CODE);
  });
});
