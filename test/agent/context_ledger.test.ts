import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ContextLedger } from '../../src/agent/context_ledger.js';
import { userMessage } from '../../src/agent/messages.js';
import type { ConversationMessage } from '../../src/agent/model_stream.js';
import { compactionThreshold } from '../../src/config/context_settings.js';

// The compaction check: the provider's count of the last request and its reply, plus lathe's
// count of what was added since, against the threshold of settings `context.compactAt`.

const reply: ConversationMessage = { role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }] };
const result: ConversationMessage = {
  role: 'tool',
  content: [
    {
      type: 'tool-result',
      toolCallId: 'call_1',
      toolName: 'read_file',
      output: { type: 'text', value: '1\tconst answer = 42;\n2\texport default answer;\n' },
    },
  ],
};

/** A conversation after one request that sent the prompt and got `reply`, whose result came back. */
function afterOneRequest(inputTokens: number) {
  const messages = [userMessage('read the file'), reply, result];
  const ledger = new ContextLedger();
  ledger.sending(1);
  ledger.recorded({ inputTokens, outputTokens: 0 });
  return { messages, ledger };
}

describe('the compaction threshold', () => {
  const threshold = compactionThreshold(10_000, 0.5);
  const added = countTokens('1\tconst answer = 42;\n2\texport default answer;\n');

  it('is the share of the window in whole tokens (0.85 of 200,000 is 170,000)', () => {
    expect(threshold).toBe(5_000);
    expect(compactionThreshold(200_000, 0.85)).toBe(170_000);
    expect(compactionThreshold(128_000, 0.85)).toBe(108_800);
  });

  it('is reached exactly when the last request and what came after it make the threshold', async () => {
    const { messages, ledger } = afterOneRequest(threshold - added);
    expect(await ledger.reaches(messages, threshold)).toBe(true);
  });

  it('is not reached one token below it', async () => {
    const { messages, ledger } = afterOneRequest(threshold - added - 1);
    expect(await ledger.reaches(messages, threshold)).toBe(false);
  });

  it('is never reached before the first request reports its usage', async () => {
    expect(await new ContextLedger().reaches([userMessage('x'.repeat(100_000))], 1)).toBe(false);
  });
});
