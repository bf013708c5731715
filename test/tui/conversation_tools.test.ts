import { afterEach, describe, expect, it } from 'vitest';
import { type AppUnderTest, KEYS, renderApp } from './support/app_harness.js';

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('conversation tools in the app', () => {
  it('shows ask_followup_question with choices as a picker', async () => {
    app = await renderApp([
      {
        toolCalls: [
          { name: 'ask_followup_question', input: { question: 'Which color?', options: ['red', 'blue'] } },
        ],
      },
      { text: 'Blue it is.' },
    ]);
    await app.submit('paint it');
    const shown = await app.waitFor('Which color?');
    expect(shown).toContain('1. red');
    expect(shown).toContain('2. blue');
    app.write(KEYS.down);
    await app.waitFor('› 2. blue');
    app.write(KEYS.enter);
    await app.waitFor('Blue it is.');
    expect(app.requests()[1].toolResults[0].content).toBe('The user answered: blue');
  });

  it('takes a typed answer to a question without choices', async () => {
    app = await renderApp([
      { toolCalls: [{ name: 'ask_followup_question', input: { question: 'What name?' } }] },
      { text: 'Named.' },
    ]);
    await app.submit('name it');
    await app.waitFor('Your answer');
    await app.submit('lathe');
    await app.waitFor('Named.');
    expect(app.requests()[1].toolResults[0].content).toBe('The user answered: lathe');
  });

  it('asks to confirm or stop after a phase_report that requires acknowledgment', async () => {
    app = await renderApp([
      {
        toolCalls: [
          {
            name: 'phase_report',
            input: { phase: 'Parser', summary: 'Parser done.', requires_acknowledgment: true },
          },
        ],
      },
    ]);
    await app.submit('build it');
    const shown = await app.waitFor('Go on after “Parser”?');
    expect(shown).toContain('Phase done: Parser');
    app.write('3'); // Stop here
    await app.waitFor('Stopped by the user after phase "Parser".');
  });

  it('shows a plan with approve and refine; a refinement goes back to the model', async () => {
    app = await renderApp([
      { toolCalls: [{ name: 'make_plan', input: { plan: '## Steps\n\n1. Parse\n2. Print' } }] },
      { text: 'I will change it.' },
    ]);
    await app.submit('plan it');
    const shown = await app.waitFor('Approve this plan?');
    expect(shown).toMatch(/Plan\n│ Steps\n│ \n│ 1\. Parse/);
    app.write('2');
    await app.waitFor('What should change in the plan?');
    await app.submit('add tests');
    await app.waitFor('I will change it.');
    expect(app.requests()[1].toolResults[0].content).toContain('They said: add tests');
  });

  it('shows generate_report as a readable report and working_respond as a short status line', async () => {
    app = await renderApp([
      {
        toolCalls: [
          { name: 'working_respond', input: { message: 'Writing the audit report now.' } },
          {
            name: 'generate_report',
            input: {
              title: 'Audit',
              summary: 'Two issues found.',
              sections: [{ heading: 'Issue 1', body: 'A **leak**.' }],
            },
          },
        ],
      },
      { text: 'Done.' },
    ]);
    await app.submit('audit');
    const shown = await app.waitFor('Done.');
    expect(shown).toContain('◦ Writing the audit report now.');
    expect(shown).toContain('Report: Audit');
    expect(shown).toContain('Two issues found.');
    expect(shown).toContain('Issue 1');
    expect(shown).toContain('A leak.');
    // The path may wrap in a narrow frame: its start says where it is.
    expect(shown).toMatch(/saved to \/.*\/sessions\//);
  });

  it('shows a change_todo_list proposal as a diff to the current list, then the todo panel', async () => {
    app = await renderApp(
      [
        {
          toolCalls: [
            {
              name: 'change_todo_list',
              input: {
                todos: [
                  { text: 'Read the code', status: 'completed' },
                  { text: 'Write tests', status: 'in_progress' },
                ],
              },
            },
          ],
        },
        {
          toolCalls: [
            {
              name: 'change_todo_list',
              input: {
                todos: [
                  { text: 'Read the code', status: 'completed' },
                  { text: 'Write tests', status: 'completed' },
                  { text: 'Update docs', status: 'pending' },
                ],
              },
            },
          ],
        },
        { text: 'All listed.' },
      ],
      { features: ['focus_chain'] },
    );
    await app.submit('work');
    await app.waitFor('Apply this todo list?');
    app.write('1');
    await app.waitFor('Todo 1/2');
    const second = await app.waitFor('+ [ ] Update docs');
    expect(second).toContain('~ [x] Write tests');
    expect(second).toContain('  [x] Read the code');
    app.write('1');
    await app.waitFor('All listed.');
    expect(app.frame()).toContain('Todo 2/3');
    expect(app.frame()).toContain('☐ Update docs');
  });
});
