import { afterEach, describe, expect, it } from 'vitest';
import { type AppUnderTest, renderApp } from '../../tui/support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const files = {
  '.agents/rules/python.md': '---\npaths: "**/*.py"\n---\nPython rule.',
  '.agents/rules/style.md': 'Style rule.',
  '.agents/rules/bad.md': '---\nglobs: [1, 2]\n---\nx',
  'CLAUDE.md': 'Claude rule.',
  'app.py': 'x = 1\n',
};

describe('/rules', () => {
  it('shows each rule as in the prompt or not and why, and follows the files read', async () => {
    app = await renderApp(
      [{ toolCalls: [{ name: 'read_file', input: { path: 'app.py' } }] }, { text: 'Read.' }],
      {
        files,
        settings: { rules: { disabled: ['CLAUDE.md'] } },
      },
    );
    await app.submit('/rules');
    const before = await app.waitFor('Rules (1 of 3 in the prompt');
    expect(before).toMatch(/○ \.agents\/rules\/python\.md\s+waiting for \*\*\/\*\.py/);
    expect(before).toMatch(/● \.agents\/rules\/style\.md\s+always/);
    expect(before).toMatch(/○ CLAUDE\.md\s+disabled in settings \(rules\.disabled\)/);
    expect(before).toContain('.agents/rules/bad.md: "globs" must be a glob or a list of globs');
    await app.submit('read the app');
    await app.waitFor('Read.');
    await app.submit('/rules');
    const after = await app.waitFor('Rules (2 of 3 in the prompt');
    expect(after).toMatch(/● \.agents\/rules\/python\.md\s+matched app\.py/);
  });

  it('says where rule files go when there are none', async () => {
    app = await renderApp([]);
    await app.submit('/rules');
    await app.waitFor('No rule files here');
  });
});
