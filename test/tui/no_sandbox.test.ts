import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pathWithoutBubblewrap } from '../support/no_bubblewrap.js';
import { type AppUnderTest, renderApp } from './support/app_harness.js';

// This file's lathe finds no bubblewrap: its sandbox probe fails as on a machine without it.
const savedPath = process.env.PATH;
beforeAll(() => {
  process.env.PATH = pathWithoutBubblewrap();
});
afterAll(() => {
  process.env.PATH = savedPath;
});

/** The frame with its line wrapping undone. */
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

let app: AppUnderTest | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('the UI when the sandbox is unavailable', () => {
  it('says so at start, and asks before each command, even a read-only one, with no "don\'t ask again"', async () => {
    app = await renderApp(
      [
        { toolCalls: [{ name: 'execute_command', input: { command: 'ls' } }] },
        { toolCalls: [{ name: 'execute_command', input: { command: 'touch made' } }] },
        { text: 'Both ran.' },
      ],
      { services: true, settings: { permissions: { allow: ['execute_command(touch*)'] } } },
    );
    const notice = flat(await app.waitFor('The sandbox is off'));
    expect(notice).toContain(
      '! The sandbox is off: bubblewrap (bwrap) is not installed. Each command asks before it runs without it; ' +
        'install it (apt install bubblewrap) or pass --sandbox off to run commands without it.',
    );
    await app.submit('list and touch');
    const asked = await app.waitFor('Run `ls`?');
    expect(flat(asked)).toContain(
      'The sandbox is unavailable (bubblewrap (bwrap) is not installed): this command would run without it',
    );
    expect(asked).not.toContain("don't ask again");
    app.write('1');
    await app.waitFor('Run `touch made`?');
    expect(existsSync(join(app.dir, 'made'))).toBe(false);
    app.write('1');
    await app.waitFor('Both ran.');
    expect(existsSync(join(app.dir, 'made'))).toBe(true);
  });
});
