// A conversation the program keeps feeding: each message is sent once the last answer is in.
import { query, type SdkUserMessage } from 'lathe';

const questions = ['What does package.json name this project?', 'And which version is it?'];
let answered: () => void = () => {};

async function* userMessages(): AsyncGenerator<SdkUserMessage> {
  for (const text of questions) {
    // The next question waits for the answer to this one.
    const answer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    yield { type: 'user', text };
    await answer;
  }
}

const run = query({
  prompt: userMessages(),
  options: { model: process.env.LATHE_MODEL ?? 'anthropic/claude-sonnet-4-5' },
});

for await (const message of run) {
  if (message.type === 'result') {
    console.log(`> ${message.result}`);
    answered();
  }
}
console.log(`session ${(await run.result).session_id}`);
