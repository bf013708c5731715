import { expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';

needs('redis-server')('lathe jobs with a Redis that does not answer', () => {
  it('says so in one line and exits 2', async () => {
    // A port a Redis listened on a moment ago, and no longer does.
    const stopped = await startRedis();
    await stopped.stop();
    const result = lathe(['jobs', 'list', '--queue', stopped.url], {
      env: { LATHE_HOME: tempDir('lathe-home-') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`lathe: cannot reach Redis at ${stopped.url}: ECONNREFUSED\n`);
  });

  it('refuses a queue that is no Redis address', () => {
    const result = lathe(['jobs', 'list', '--queue', 'http://10.0.0.5:6379'], {
      env: { LATHE_HOME: tempDir('lathe-home-') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'lathe: the queue "http://10.0.0.5:6379" is not a Redis address: use "local" or redis://HOST:PORT/DB\n',
    );
  });
});
