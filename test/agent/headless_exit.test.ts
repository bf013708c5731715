import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionLog } from '../../src/session/read.js';
import { latheAsync } from '../support/cli.js';
import { FakeModelServer, type ScriptedTurn } from '../support/fake_model_server.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

// `lathe -p` ends its process as soon as the run is over: these check that nothing it owes is
// cut short by that — the output, the session log, the commands it started.

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(turns: ScriptedTurn[], args: string[] = []) {
  server = await FakeModelServer.start({ turns });
  const home = tempDir('lathe-home-');
  const result = await latheAsync(['-p', 'do the task', '--model', 'anthropic/claude-sonnet-4-5', ...args], {
    cwd: tempDir('lathe-repo-'),
    env: {
      LATHE_HOME: home,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      NODE_ENV: 'test',
    },
  });
  return { ...result, home };
}

function sessionLogs(home: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      // A session's own folder (beside its log) holds other records, not logs.
      if (entry.isDirectory()) {
        if (!existsSync(`${path}.jsonl`)) walk(path);
      } else if (entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  walk(home);
  return found;
}

/** Processes on this machine whose command line holds `token`. */
function processesWith(token: string): string[] {
  return readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token);
    } catch {
      return false;
    }
  });
}

describe('lathe -p at its end', () => {
  it('prints a long answer whole, and its session log ends with session_end', async () => {
    const answer = `${'All done, line by line.\n'.repeat(20_000)}The end.`;
    const r = await run([{ text: answer }]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd()).toBe(answer);
    const [log] = sessionLogs(r.home);
    const { events, tornLine } = readSessionLog(log);
    expect(tornLine).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'session_end', reason: 'final_text' });
  });

  testNeeds('bwrap')('ends a command it left running in the background', async () => {
    const token = `lathe-bg-${randomUUID()}`;
    const r = await run(
      [
        {
          toolCalls: [
            { name: 'execute_command', input: { command: `sleep 300 # ${token}`, run_in_background: true } },
          ],
        },
        { text: 'Started it.' },
      ],
      ['--yolo'],
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Started it.');
    const started = readSessionLog(sessionLogs(r.home)[0]).events.find((e) => e.type === 'tool_result');
    expect(started).toMatchObject({ name: 'execute_command', result: { isError: false } });
    // The kill has been sent before lathe exited; the process may take a moment to go.
    for (let wait = 0; wait < 200 && processesWith(token).length > 0; wait++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(processesWith(token)).toEqual([]);
  });
});
