import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { FakeModelServer } from '../support/fake_model_server.js';
import { needs } from '../support/required_programs.js';
import { latheStarter, repo } from './support/lathe_terminal.js';

// What the command line hands the interactive UI, and the UI's own ways to the same things: the
// built `lathe` in tmux, against the fake model server.

const start = latheStarter();

const done = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] });
const models = (server: FakeModelServer) => server.requests.filter((r) => r.kind === 'model');

async function repoWithImage(): Promise<string> {
  const dir = repo();
  const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();
  writeFileSync(join(dir, 'shot.png'), png);
  return dir;
}

needs('tmux')('lathe "a prompt"', () => {
  it('opens the UI and sends the prompt', async () => {
    const { term, requests } = await start([done('The test passes now.')], {
      args: ['fix the failing test'],
    });
    await term.waitFor('The test passes now.');
    expect(term.history()).toContain('fix the failing test');
    expect(requests()).toHaveLength(1);
    expect(requests()[0].lastUserText).toBe('fix the failing test');
  });
});

needs('tmux')('@image.png in a prompt', () => {
  it('attaches the image when the model takes images', async () => {
    const dir = await repoWithImage();
    const { term, server } = await start([done('A green rectangle.')], { dir });
    term.type('what is in @shot.png');
    term.press('Enter');
    await term.waitFor('A green rectangle.');
    expect(term.history()).toContain('Attached shot.png');
    const content = models(server)[0].body.messages[0].content;
    expect(content[0]).toMatchObject({ type: 'text' });
    expect(content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
  });

  it('says so in one line, and sends nothing, when the model does not take images', async () => {
    const dir = await repoWithImage();
    const lathe = await start([done('unused')], {
      dir,
      args: ['-m', 'ollama/qwen2.5-coder'],
      env: { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:9/v1' },
    });
    lathe.term.type('what is in @shot.png');
    lathe.term.press('Enter');
    await lathe.term.waitFor('ollama/qwen2.5-coder does not take images: leave @shot.png out');
    expect(models(lathe.server)).toHaveLength(0);
  });
});

needs('tmux')('/effort', () => {
  it('sets the thinking budget of the next request, after the flag’s', async () => {
    const { term, server } = await start([done('First.'), done('Second.')], { args: ['--effort', 'low'] });
    term.type('one');
    term.press('Enter');
    await term.waitFor('First.');
    term.type('/effort high');
    term.press('Enter');
    await term.waitFor('Effort: high');
    term.type('two');
    term.press('Enter');
    await term.waitFor('Second.');
    const [first, second] = models(server);
    expect(first.body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 });
    expect(second.body.thinking).toEqual({ type: 'enabled', budget_tokens: 32_000 });
  });
});
