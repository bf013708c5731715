import { afterEach, describe, expect, it } from 'vitest';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

// `/context` and `/pin` in the terminal UI, against the fake model server.

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('/context', () => {
  it('shows the parts of the context, summing to the last request within 1%', async () => {
    app = await renderApp([{ text: 'Hi.' }], { countTokens: true });
    await app.submit('hello');
    await app.waitFor('Hi.');
    await app.submit('/context');
    const shown = await app.waitFor(/Context: [\d,]+ of 200,000 tokens/);
    for (const part of ['system prompt', 'tools', 'rules', 'skills list', 'messages', 'tool results'])
      expect(shown).toContain(`${part}: `);
    expect(shown).toMatch(/scaled ×1\.0\d\d to the provider's count of the last request/);
    const total = Number(/Context: ([\d,]+) of/.exec(shown)?.[1].replace(/,/g, ''));
    const counted = app.requests()[0].tokens!;
    expect(Math.abs(total - counted) / counted).toBeLessThan(0.01);
  });
});

describe('/pin', () => {
  it('sends the instruction as a # line, lists it, and keeps it word for word through /compact', async () => {
    app = await renderApp([{ text: 'Noted.' }, { text: 'Summary: tabs.' }, { text: 'Two.' }]);
    await app.submit('/pin Always indent with tabs.');
    await app.waitFor('Noted.');
    expect(app.requests()[0].lastUserText).toBe('# Always indent with tabs.');
    await app.submit('/pin');
    await app.waitFor('Lasting instructions');
    await app.submit('/compact');
    await app.waitFor('compacted into a summary');
    await app.submit('second');
    await app.waitFor('Two.');
    const sent = JSON.stringify(app.requests()[2].body.messages);
    expect(sent).toContain('# Always indent with tabs.');
    expect(sent).toContain('Summary: tabs.');
  });
});
