import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

// The flags of a run, each checked where it lands: in the request the fake model server receives,
// or in what the tools were allowed to do.

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DONE: ScriptedTurn = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] };

async function run(
  args: string[],
  options: {
    turns?: ScriptedTurn[];
    input?: string;
    env?: Record<string, string>;
    dir?: string;
    home?: string;
  } = {},
) {
  server = await FakeModelServer.start({ turns: options.turns ?? [DONE] });
  const dir = options.dir ?? tempDir('lathe-repo-');
  const result = await latheAsync([...args, '--output-format', 'json'], {
    cwd: dir,
    input: options.input ?? '',
    env: {
      LATHE_HOME: options.home ?? tempDir('lathe-home-'),
      LATHE_MODEL: '',
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: server.baseUrl('openai-responses'),
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: server.url,
      OPENAI_COMPATIBLE_BASE_URL: server.baseUrl('openai-chat'),
      LATHE_RETRY_BASE_MS: '10',
      NODE_ENV: 'test',
      ...options.env,
    },
  });
  return { ...result, dir, requests: server.requests.filter((r) => r.kind === 'model') };
}

const CLAUDE = ['--model', 'anthropic/claude-sonnet-4-5'];

describe('lathe -p with piped input', () => {
  it('sends what was piped in after the prompt', async () => {
    const log = 'src/app.test.ts:12\n  expected 2, received 3\n';
    const r = await run(['-p', 'why does this fail?', ...CLAUDE], { input: log });
    expect(r.code).toBe(0);
    const text = r.requests[0].lastUserText!;
    expect(text).toMatch(/^why does this fail\?\n\n<stdin>\n/);
    expect(text).toContain('expected 2, received 3');
  });

  it('takes the prompt as a positional argument too', async () => {
    const r = await run(['explain the build', '-p', ...CLAUDE]);
    expect(r.code).toBe(0);
    expect(r.requests[0].lastUserText).toBe('explain the build');
  });
});

describe('--effort', () => {
  it('sets Anthropic’s thinking budget', async () => {
    const r = await run(['-p', 'think', ...CLAUDE, '--effort', 'high']);
    expect(r.code).toBe(0);
    expect(r.requests[0].body.thinking).toEqual({ type: 'enabled', budget_tokens: 32_000 });
  });

  it('sends Anthropic’s thinking back, signed, before the tool use it led to', async () => {
    const r = await run(['-p', 'think', ...CLAUDE, '--effort', 'low'], {
      turns: [
        {
          thinking: { text: 'The list is short; read it.', signature: 'sig-123' },
          toolCalls: [{ name: 'list_files', input: { path: '.' } }],
        },
        DONE,
      ],
    });
    expect(r.code).toBe(0);
    const assistant = r.requests[1].body.messages[1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The list is short; read it.',
      signature: 'sig-123',
    });
    expect(assistant.content[1]).toMatchObject({ type: 'tool_use', name: 'list_files' });
  });

  it('sets OpenAI’s reasoning effort', async () => {
    const r = await run(['-p', 'think', '-m', 'openai/gpt-5', '--effort', 'low']);
    expect(r.code).toBe(0);
    expect(r.requests[0].path).toMatch(/\/responses$/);
    expect(r.requests[0].body.reasoning).toMatchObject({ effort: 'low' });
  });

  it('sets Gemini’s thinking budget', async () => {
    const r = await run(['-p', 'think', '-m', 'google/gemini-2.5-flash', '--effort', 'medium']);
    expect(r.code).toBe(0);
    expect(r.requests[0].body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 8192 });
  });

  it('comes from the settings when no flag gives it, and is absent when neither does', async () => {
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'settings'));
    writeFileSync(join(home, 'settings', 'settings.json'), JSON.stringify({ effort: 'low' }));
    const set = await run(['-p', 'think', ...CLAUDE], { home });
    expect(set.requests[0].body.thinking).toEqual({ type: 'enabled', budget_tokens: 4_000 });
    const unset = await run(['-p', 'think', ...CLAUDE]);
    expect(unset.requests[0].body.thinking).toBeUndefined();
  });
});

describe('--system-prompt and --append-system-prompt', () => {
  it('replace lathe’s instructions, and add to the end', async () => {
    const r = await run([
      '-p',
      'hello',
      ...CLAUDE,
      '--system-prompt',
      'You are a release bot.',
      '--append-system-prompt',
      'Answer in French.',
    ]);
    const system = r.requests[0].systemText!;
    expect(system).toMatch(/^You are a release bot\./);
    expect(system).not.toContain('You are lathe');
    expect(system).toMatch(/Environment \(as it was when the conversation started\):/);
    expect(system).toMatch(/Answer in French\.$/);
  });
});

describe('--allowed-tools and --disallowed-tools', () => {
  testNeeds('bwrap')('allow a command for this run that would otherwise be refused headless', async () => {
    const touch: ScriptedTurn = {
      toolCalls: [{ name: 'execute_command', input: { command: 'touch made.txt' } }],
    };
    const refused = await run(['-p', 'make it', ...CLAUDE], { turns: [touch, DONE] });
    expect(existsSync(join(refused.dir, 'made.txt'))).toBe(false);
    expect(refused.requests[1].toolResults[0].isError).toBe(true);

    const allowed = await run(
      ['-p', 'make it', ...CLAUDE, '--allowed-tools', 'execute_command(touch made.txt)'],
      {
        turns: [touch, DONE],
      },
    );
    expect(allowed.requests[1].toolResults[0].isError).toBeFalsy();
    expect(existsSync(join(allowed.dir, 'made.txt'))).toBe(true);
  });

  it('take a tool away from the model', async () => {
    const r = await run([
      '-p',
      'hi',
      ...CLAUDE,
      '--disallowed-tools',
      'write_to_file',
      'execute_command(rm *)',
    ]);
    expect(r.requests[0].toolNames).not.toContain('write_to_file');
    expect(r.requests[0].toolNames).toContain('read_file');
  });
});

describe('--add-dir', () => {
  it('lets the tools read and edit another folder as they do the workspace', async () => {
    const other = writeTree({ 'notes.txt': 'shared notes\n' }, 'lathe-other-');
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ name: 'read_file', input: { path: join(other, 'notes.txt') } }] },
      {
        toolCalls: [{ name: 'write_to_file', input: { path: join(other, 'new.txt'), content: 'written\n' } }],
      },
      DONE,
    ];
    const without = await run(['-p', 'use the notes', ...CLAUDE, '--approve', 'edit'], { turns });
    expect(without.requests[1].toolResults[0].isError).toBe(true);
    expect(existsSync(join(other, 'new.txt'))).toBe(false);

    const r = await run(['-p', 'use the notes', ...CLAUDE, '--approve', 'edit', '--add-dir', other], {
      turns,
    });
    expect(r.code).toBe(0);
    expect(r.requests[1].toolResults[0].content).toContain('shared notes');
    expect(r.requests[2].toolResults[0].isError).toBeFalsy();
    expect(readFileSync(join(other, 'new.txt'), 'utf8')).toBe('written\n');
    expect(r.requests[0].systemText).toContain(`you may read and edit files in: ${other}`);
  });
});

describe('-i/--image', () => {
  async function png(): Promise<string> {
    const dir = tempDir('lathe-img-');
    const file = join(dir, 'shot.png');
    writeFileSync(
      file,
      await sharp({ create: { width: 8, height: 6, channels: 3, background: '#c00' } })
        .png()
        .toBuffer(),
    );
    return file;
  }

  it('sends the image with the prompt to a model that takes images', async () => {
    const file = await png();
    const r = await run(['-p', 'what is on the screen?', ...CLAUDE, '-i', file]);
    expect(r.code).toBe(0);
    const content = r.requests[0].body.messages[0].content;
    expect(content[0]).toMatchObject({ type: 'text', text: 'what is on the screen?' });
    expect(content[1]).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: readFileSync(file).toString('base64') },
    });
  });

  it('is refused in one line for a model that does not take images', async () => {
    const r = await run(['-p', 'look', '-m', 'ollama/qwen2.5-coder', '-i', await png()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^lathe: ollama\/qwen2\.5-coder does not take images; [^\n]+\n$/);
    expect(r.requests).toHaveLength(0);
  });
});

describe('provider keys', () => {
  it('takes GOOGLE_API_KEY for Gemini', async () => {
    const r = await run(['-p', 'hi', '-m', 'google/gemini-2.5-flash'], {
      env: { GEMINI_API_KEY: '', GOOGLE_API_KEY: 'google-key' },
    });
    expect(r.code).toBe(0);
    expect(r.requests[0].headers['x-goog-api-key']).toBe('google-key');
  });
});
