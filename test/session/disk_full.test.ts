import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SessionLog } from '../../src/session/log.js';
import { readSessionLog } from '../../src/session/read.js';
import { budgetResult } from '../../src/tool/budget.js';
import { OutputCapture } from '../../src/tools/exec/output_capture.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer } from '../support/fake_model_server.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

// A full disk is real here: /dev/full for a write stream, and a small tmpfs (mounting one needs
// root) for files and the session log. A failed write must never be an unhandled `error` event.

const isRoot = process.getuid?.() === 0;

describe('a tool output file on a full disk (/dev/full)', () => {
  it('keeps the command output in memory and says the file could not be saved', async () => {
    const capture = new OutputCapture('/dev/full', 1000);
    const chunk = Buffer.alloc(64 * 1024, 'x');
    for (let i = 0; i < 16; i++) {
      if (!capture.write(chunk)) await new Promise<void>((resolve) => capture.onDrain(resolve));
    }
    capture.write(Buffer.from('\nlast line\n'));
    await capture.close();
    const preview = capture.preview();
    expect(preview.truncated).toBe(true);
    expect(preview.text).toContain('the whole output could not be saved (the disk is full)');
    expect(preview.text.endsWith('last line\n')).toBe(true);
  });
});

describe.skipIf(!isRoot)('a full disk (a 256 KB tmpfs; mounting it needs root)', () => {
  let disk: string;
  beforeAll(() => {
    disk = tempDir('lathe-full-disk-');
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0755', 'tmpfs', disk]);
  });
  afterEach(() => {
    for (const entry of fs.readdirSync(disk)) fs.rmSync(join(disk, entry), { recursive: true, force: true });
  });
  afterAll(() => {
    execFileSync('umount', [disk]);
    fs.rmSync(disk, { recursive: true, force: true });
  });

  /** Fills the disk to the last byte; removing the returned file frees it again. */
  function fill(): string {
    const filler = join(disk, 'filler');
    const fd = fs.openSync(filler, 'w');
    const block = Buffer.alloc(4096, 'f');
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    // Top up the last partial page byte by byte.
    try {
      for (;;) fs.writeSync(fd, block, 0, 1);
    } catch {
      // full
    } finally {
      fs.closeSync(fd);
    }
    return filler;
  }

  it('the session log reports once, keeps whole lines, and saves again once there is room', () => {
    const warnings: string[] = [];
    const log = SessionLog.create({
      documentsRoot: disk,
      workspace: '/projects/full',
      id: 's',
      meta: {},
      onWriteError: (line) => warnings.push(line),
    });
    log.append({ type: 'user_message', text: 'before' });
    const filler = fill();
    for (let i = 0; i < 5; i++) log.append({ type: 'tool_result', text: 'y'.repeat(10_000) });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^session log .*s\.jsonl: could not save \(the disk is full\); the session goes on/,
    );

    fs.rmSync(filler);
    log.append({ type: 'user_message', text: 'after' });
    log.close();
    const { events, errors, tornLine } = readSessionLog(log.path);
    expect({ errors, tornLine }).toEqual({ errors: [], tornLine: false });
    expect(events.map((event) => event.text ?? event.type)).toEqual(['session_start', 'before', 'after']);
  });

  it('a result over its budget comes back as a preview when it cannot be saved, leaving no partial file', async () => {
    fill();
    const text = `${'z'.repeat(200_000)}THE END`;
    const result = await budgetResult({ isError: false, text }, 10_000, join(disk, 'session'), 'call_1');
    expect(result.savedPath).toBeUndefined();
    expect(result.text).toContain('The whole result could not be saved (the disk is full)');
    expect(result.text).toContain('THE END');
    expect(result.text.length).toBeLessThan(11_000);
    expect(fs.readdirSync(join(disk, 'session', 'tool-results'))).toEqual([]);
  });

  testNeeds('bwrap')(
    'lathe -p goes on when a command fills the disk: one warning line, the model told, the run done',
    async () => {
      const dir = tempDir('lathe-repo-');
      const server = await FakeModelServer.start({
        turns: [
          {
            toolCalls: [
              {
                name: 'execute_command',
                input: { command: 'head -c 2000000 /dev/zero | tr "\\0" x; echo; echo done' },
              },
            ],
          },
          { text: 'All done.' },
        ],
      });
      try {
        const run = await latheAsync(
          ['-p', 'make noise', '--model', 'anthropic/claude-sonnet-4-5', '--yolo'],
          {
            cwd: dir,
            env: {
              LATHE_HOME: disk,
              ANTHROPIC_BASE_URL: server.url,
              ANTHROPIC_API_KEY: 'k',
              NODE_ENV: 'test',
            },
          },
        );
        expect(run).toMatchObject({ code: 0, stdout: 'All done.\n' });
        const lines = run.stderr.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^lathe: warning: session log .*: could not save \(the disk is full\)/);
        const [result] = server.requests.filter((q) => q.kind === 'model')[1].toolResults;
        expect(result.content).toContain('the whole output could not be saved (the disk is full)');
        expect(result.content).toMatch(/done\n/);
      } finally {
        await server.close();
      }
    },
  );
});
