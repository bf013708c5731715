import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runDir } from '../../src/messaging/peer_directory.js';
import type { PeerInfo } from '../../src/tool/context/peers.js';
import { closeFakeServers, runHeadless } from '../support/headless_run.js';
import { eventually } from '../support/processes.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { latheStarter, repo } from '../tui/support/lathe_terminal.js';

// Two built lathes of one user (one $LATHE_HOME): an interactive one in tmux and a headless one
// whose model finds it with list_peers and messages it; the message reaches the interactive
// lathe's model in its next request.

const start = latheStarter();
afterEach(closeFakeServers);

needs('tmux')('peers across an interactive and a headless lathe', () => {
  it('a headless lathe finds an interactive one with list_peers and its message reaches that model', async () => {
    const home = tempDir('lathe-home-');
    const receiver = await start([{ text: 'Thanks, noted.' }], { home, args: ['--feature', 'peers'] });
    // The interactive lathe's inbox: its info file, once it listens.
    const info = await eventually(() => {
      let names: string[] = [];
      try {
        names = readdirSync(runDir(home));
      } catch {
        // not made yet
      }
      const file = names.find((name) => name.endsWith('.json'));
      return file ? (JSON.parse(readFileSync(join(runDir(home), file), 'utf8')) as PeerInfo) : undefined;
    });
    expect(info.cwd).toBe(receiver.dir);

    const sender = await runHeadless(
      repo(),
      [
        { toolCalls: [{ name: 'list_peers', input: {} }] },
        {
          toolCalls: [{ name: 'send_message', input: { to: info.name, message: 'PING-7f3 from the build' } }],
        },
        { text: 'Message sent.' },
      ],
      ['--feature', 'peers'],
      { home },
    );
    expect(sender.code, sender.stderr).toBe(0);
    const listed = sender.requests[1].toolResults[0].content;
    expect(listed).toContain(`${info.name} (id peer_${info.pid}): ${receiver.dir}`);
    expect(sender.requests[2].toolResults[0].content).toBe(
      `Sent to ${info.name} (peer, id peer_${info.pid}).`,
    );

    // Shown to the user, and given to the model as the next prompt.
    await receiver.term.waitFor('Thanks, noted.');
    const screen = receiver.term.screen();
    expect(screen).toMatch(/\(from peer lathe-repo-\w+-\d+\) PING-7f3 from the build/);
    const [request] = receiver.requests();
    expect(request.lastUserText).toMatch(
      /^Message from peer lathe-repo-\w+-\d+ \(another lathe, pid \d+, working in /,
    );
    expect(request.lastUserText).toContain('PING-7f3 from the build');
    // The sender's inbox closed with its run.
    expect(readdirSync(runDir(home)).sort()).toEqual([`${info.pid}.json`, `${info.pid}.sock`]);
  }, 60_000);
});
