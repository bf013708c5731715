// One prompt, run to its end: the answer is printed as it streams, then what the run cost.
import { query } from 'lathe';

const run = query({
  prompt: 'Which files are in this folder? Answer in one sentence.',
  options: { model: process.env.LATHE_MODEL ?? 'anthropic/claude-sonnet-4-5' },
});

for await (const message of run) {
  if (message.type === 'text_delta') process.stdout.write(message.text);
  if (message.type === 'tool_call') console.log(`\n[${message.name}]`);
  if (message.type === 'result') {
    console.log(`\n${message.subtype} after ${message.num_turns} requests, ${message.usage.output_tokens} tokens out`);
    process.exitCode = message.is_error ? 1 : 0;
  }
}
