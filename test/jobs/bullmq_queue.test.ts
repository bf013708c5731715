import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lathe } from '../support/cli.js';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { queueBehaviour } from './queue_behaviour.js';

describe('lathe jobs on BullMQ with a real Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  queueBehaviour(async () => {
    // Each test starts from an empty Redis.
    const client = new Redis(redis.url);
    await client.flushdb();
    client.disconnect();
    return ['--queue', redis.url];
  });

  it('says in one line that Redis cannot be reached, and exits 2', async () => {
    const stopped = await startRedis();
    await stopped.stop();
    const result = lathe(['jobs', 'list', '--queue', stopped.url], {
      env: { LATHE_HOME: tempDir('lathe-home-') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`lathe: cannot reach Redis at ${stopped.url}: ECONNREFUSED\n`);
  });
});
