import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LinesView } from '../../src/tui/components/lines_view.js';
import { renderDiffCard } from '../../src/tui/render/diff_card.js';
import {
  type Background,
  type Color,
  colorsEnabled,
  type Line,
  lineToAnsi,
  setTheme,
  stripAnsi,
  THEMES,
} from '../../src/tui/render/style.js';
import { renderToolLine } from '../../src/tui/render/tool_line.js';
import '../../src/tui/session/tool_catalogue.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

/** An SGR sequence with a colour in it: 30–38, 40–48, 90–97, 100–107 (39 and 49 are the defaults). */
const COLOR_CODE = /\x1b\[(?:[0-9]+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]+)*m/;

const ROLES = Object.keys(THEMES.dark.codes) as Array<Color | Background>;
const BACKGROUNDS: Background[] = ['removedLine', 'addedLine', 'removedWord', 'addedWord'];
const everyRole: Line = ROLES.map((role) => ({
  text: role,
  style: (BACKGROUNDS as string[]).includes(role)
    ? { background: role as Background }
    : { color: role as Color },
}));

const DIFF =
  '--- a.ts\n+++ a.ts\n@@ -1,2 +1,2 @@\n-export const answer = 41;\n+export const answer = 42;\n const other = 1;';
const toolLine = () =>
  renderToolLine(
    {
      id: '1',
      name: 'read_file',
      input: { path: 'a.ts' },
      status: 'ok',
      resultText: 'x\ny',
      elapsedMs: 5,
    },
    80,
  );

afterEach(() => {
  setTheme('dark');
});

describe('themes', () => {
  it('give every role a colour in dark and light, and light its own', () => {
    for (const role of ROLES) {
      expect(THEMES.dark.codes[role], role).not.toBe('');
      expect(THEMES.light.codes[role], role).not.toBe('');
    }
    expect(lineToAnsi(everyRole, THEMES.light)).not.toBe(lineToAnsi(everyRole, THEMES.dark));
  });

  it('plain has no colour codes at all, and keeps bold and inverse', () => {
    const line: Line = [
      ...everyRole,
      { text: 'cursor', style: { inverse: true, bold: true, color: 'planMode' } },
    ];
    const plain = lineToAnsi(line, THEMES.plain);
    expect(plain).not.toMatch(COLOR_CODE);
    expect(plain).toContain('\x1b[1;7mcursor');
    // Quiet text stays quieter (dim); changed words in a diff are underlined.
    expect(lineToAnsi([{ text: 'm', style: { color: 'muted' } }], THEMES.plain)).toBe('\x1b[2mm\x1b[0m');
    expect(lineToAnsi([{ text: 'w', style: { background: 'addedWord' } }], THEMES.plain)).toBe(
      '\x1b[4mw\x1b[0m',
    );
  });

  it.skipIf(!colorsEnabled())('colour what Ink renders, each by its own codes', () => {
    const lines = [...toolLine(), ...renderDiffCard(DIFF, 60)];
    const frame = (theme: 'dark' | 'light' | 'plain') => {
      setTheme(theme);
      const app = render(createElement(LinesView, { lines: [...lines] }));
      const shown = app.lastFrame() ?? '';
      app.unmount();
      return shown;
    };
    const dark = frame('dark');
    expect(dark).toContain('\x1b[32m✓');
    expect(dark).toContain('48;5;52');
    const light = frame('light');
    expect(light).toContain('38;5;28');
    expect(light).toContain('48;5;224');
    expect(light).not.toContain('48;5;52');
    const plain = frame('plain');
    expect(stripAnsi(plain)).toContain('✓ Read a.ts');
    expect(plain).not.toMatch(COLOR_CODE);
  });
});

describe('/theme', () => {
  let app: AppUnderTest | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  const promptRows = (raw: string) => raw.trimEnd().split('\n').slice(-3).join('\n');

  it.skipIf(!colorsEnabled())('switches the colours of what is drawn from then on', async () => {
    app = await renderApp([]);
    await app.waitFor('Ask lathe to do something');
    expect(promptRows(app.rawFrame())).toContain('\x1b[32m›');
    await app.submit('/theme light');
    await app.waitFor('Theme: light');
    expect(promptRows(app.rawFrame())).toContain('\x1b[38;5;28m›');
    await app.submit('/theme plain');
    await app.waitFor('Theme: plain');
    expect(promptRows(app.rawFrame())).not.toMatch(COLOR_CODE);
    await app.submit('/theme sepia');
    await app.waitFor('Unknown theme "sepia": use dark, light, plain.');
    await app.submit('/theme');
    await app.waitFor(/Theme: plain\s*$/m);
  });
});
