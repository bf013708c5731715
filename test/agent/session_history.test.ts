import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../../src/agent/model_stream.js';
import {
  historyFromEvents,
  INTERRUPTED_RESULT,
  repairConversation,
} from '../../src/agent/session_history.js';

const user = (text: string): ConversationMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const said = (text: string): ConversationMessage => ({
  role: 'assistant',
  content: [{ type: 'text', text }],
});
const calls = (...ids: string[]): ConversationMessage => ({
  role: 'assistant',
  content: ids.map((id) => ({
    type: 'tool-call' as const,
    toolCallId: id,
    toolName: 'read_file',
    input: {},
  })),
});
const results = (...ids: string[]): ConversationMessage => ({
  role: 'tool',
  content: ids.map((id) => ({
    type: 'tool-result' as const,
    toolCallId: id,
    toolName: 'read_file',
    output: { type: 'text' as const, value: `result ${id}` },
  })),
});
const interrupted = (id: string) => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 'read_file',
  output: { type: 'error-text', value: INTERRUPTED_RESULT },
});

describe('repairConversation', () => {
  it('leaves a whole conversation as it is', () => {
    const whole = [user('go'), calls('a', 'b'), results('a', 'b'), said('done')];
    expect(repairConversation(whole)).toEqual(whole);
  });

  it('drops results whose call was lost', () => {
    expect(repairConversation([user('go'), results('a'), said('done')])).toEqual([user('go'), said('done')]);
  });

  it('gives calls whose results were lost an interrupted result, in the middle and at the end', () => {
    const repaired = repairConversation([
      user('go'),
      calls('a', 'b'),
      results('a'),
      user('more'),
      calls('c'),
    ]);
    expect(repaired[2]).toEqual({ role: 'tool', content: [...results('a').content, interrupted('b')] });
    expect(repaired[3]).toEqual(user('more'));
    expect(repaired[5]).toEqual({ role: 'tool', content: [interrupted('c')] });
    expect(repaired).toHaveLength(6);
  });

  it('joins assistant turns left side by side, and opens with a user turn', () => {
    const repaired = repairConversation([said('one'), said('two')]);
    expect(repaired).toHaveLength(2);
    expect(repaired[0].role).toBe('user');
    expect(repaired[1]).toEqual({
      role: 'assistant',
      content: [...said('one').content, ...said('two').content],
    });
  });
});

describe('historyFromEvents', () => {
  it('starts from the latest compaction and skips records that are not messages', () => {
    const history = historyFromEvents([
      { type: 'model_message', message: user('old') },
      { type: 'compacted_messages', messages: [user('summary')] },
      { type: 'model_message', message: { role: 'nobody', content: [] } },
      { type: 'model_message', message: said('after') },
    ]);
    expect(history).toEqual([user('summary'), said('after')]);
  });
});
