import { afterEach, describe, expect, it } from 'vitest';
import { testNeeds } from '../support/required_programs.js';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const files = Object.fromEntries(
  Array.from({ length: 10 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`]),
);
const reads = Array.from({ length: 10 }, (_, i) => ({ name: 'read_file', input: { path: `src/f${i}.ts` } }));
const searches = [
  { name: 'search_files', input: { regex: 'export', path: 'src' } },
  { name: 'glob', input: { pattern: '**/*.ts' } },
];

describe('read-only calls in a row', () => {
  for (const columns of [120, 60])
    testNeeds('bwrap')(`show as one line while they run and after, at ${columns} columns`, async () => {
      app = await renderApp(
        [{ toolCalls: [...reads, searches[0]] }, { toolCalls: [searches[1]] }, { text: 'All read.' }],
        {
          files,
        },
      );
      app.resize(columns);
      await app.submit('read everything');
      const shown = await app.waitFor('All read.');
      const rows = shown.split('\n');
      const summary = rows.filter((l) => l.includes('Read 10 files, searched 2 patterns'));
      expect(summary).toHaveLength(1);
      expect(summary[0].length).toBeLessThanOrEqual(columns);
      // No call has a line of its own.
      expect(rows.filter((l) => /Read src\/f\d\.ts/.test(l))).toEqual([]);
    });

  it('open with ctrl+o into each call with its result', async () => {
    app = await renderApp([{ toolCalls: reads.slice(0, 3) }, { text: 'Done reading.' }], { files });
    await app.submit('read three');
    await app.waitFor('Done reading.');
    expect(app.frame()).toContain('Read 3 files');
    app.write(KEYS.ctrlO);
    const opened = await app.waitFor(/Read src\/f2\.ts/);
    for (const i of [0, 1, 2]) expect(opened).toMatch(new RegExp(`✓ Read src/f${i}\\.ts`));
    expect(opened).toContain('└ 1 line');
    // A second ctrl+o goes on to the latest result in full, as before.
    app.write(KEYS.ctrlO);
    await app.waitFor(/\nRead src\/f\d\.ts\n.*export const v\d = \d;/);
  });

  testNeeds('bwrap')('keep one line each when a call that is not read-only stands between them', async () => {
    app = await renderApp(
      [
        { toolCalls: [reads[0]] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'true' } }] },
        { toolCalls: [reads[1]] },
        { text: 'Mixed.' },
      ],
      { files, settings: { permissions: { allow: ['execute_command'] } } as never },
    );
    await app.submit('mixed');
    const shown = await app.waitFor('Mixed.');
    expect(shown).toMatch(/✓ Read src\/f0\.ts/);
    expect(shown).toMatch(/✓ Read src\/f1\.ts/);
    expect(shown).not.toContain('Read 2 files');
  });
});
