import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { lastingInstructions } from '../../src/agent/lasting_instructions.js';
import { userMessage } from '../../src/agent/messages.js';
import type { ConversationMessage } from '../../src/agent/model_stream.js';
import { snipConversation } from '../../src/agent/snip.js';

// snip's engine over a conversation: what it cuts, the stubs it leaves, what always stays.

const setting = { count: countTokens, logHint: 'lathe sessions show S1' };

function conversation(): ConversationMessage[] {
  return [
    userMessage('# Always indent with tabs.\nread a.txt'),
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'read_file', input: { path: 'a.txt' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'read_file',
          output: { type: 'text', value: 'a long file '.repeat(200) },
        },
      ],
    },
    { role: 'assistant', content: [{ type: 'text', text: 'It is long.' }] },
    userMessage('now fix b.txt'),
  ];
}

describe('snip', () => {
  it('cuts a tool result to a stub and keeps its call paired', () => {
    const messages = conversation();
    const outcome = snipConversation(messages, { ids: ['call_1'] }, setting);
    expect(outcome).toMatchObject({ ok: true, removed: [{ id: 'call_1', what: 'result of read_file' }] });
    const part = messages[2].content[0];
    expect(part).toMatchObject({ type: 'tool-result', toolCallId: 'call_1' });
    expect(JSON.stringify(part)).toMatch(
      /\[snipped the result of read_file \(call call_1\), [\d,]+ tokens; the full text is in the session log: lathe sessions show S1\]/,
    );
    expect(snipConversation(messages, { ids: ['call_1'] }, setting)).toEqual({
      ok: false,
      error: 'The result of call_1 is already snipped.',
    });
  });

  it("keeps a prompt's # lines when the prompt is cut, and refuses the latest prompt", () => {
    const messages = conversation();
    expect(snipConversation(messages, { ids: ['msg-1'] }, setting)).toMatchObject({ ok: true });
    expect(lastingInstructions(messages)).toEqual(['# Always indent with tabs.']);
    expect(messages[0].content).toEqual([
      {
        type: 'text',
        text: expect.stringMatching(/^# Always indent with tabs\.\n\[snipped msg-1 \(user: "/),
      },
    ]);
    expect(snipConversation(messages, { ids: ['msg-5'] }, setting)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/msg-5 is the latest prompt/),
    });
  });

  it('cuts all or nothing: one unknown id leaves the conversation as it was', () => {
    const messages = conversation();
    const before = JSON.stringify(messages);
    expect(snipConversation(messages, { ids: ['call_1', 'msg-99'] }, setting)).toMatchObject({ ok: false });
    expect(JSON.stringify(messages)).toBe(before);
  });

  it('before_turn replaces the earlier turns with one stub, lasting instructions first', () => {
    const messages = conversation();
    const outcome = snipConversation(messages, { beforeTurn: 2 }, setting);
    expect(outcome).toMatchObject({ ok: true, removed: [{ id: 'msg-1…msg-4' }] });
    expect(messages).toHaveLength(3);
    expect(lastingInstructions(messages)).toEqual(['# Always indent with tabs.']);
    expect(JSON.stringify(messages[1])).toMatch(/snipped 4 messages before turn 2/);
    expect(messages[2]).toEqual(userMessage('now fix b.txt'));
    expect(snipConversation(conversation(), { beforeTurn: 3 }, setting)).toMatchObject({ ok: false });
  });
});
