import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';
import { queueBehaviour } from './queue_behaviour.js';

needs('redis-server', 'bwrap')('lathe jobs on BullMQ with a real Redis', () => {
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
});
