import type { ChildProcess } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { type RedisServer, startRedis } from '../support/redis_server.js';
import { needs } from '../support/required_programs.js';
import { type JobWorld, makeWorld } from './queue_behaviour.js';

needs('redis-server', 'bwrap')('a BullMQ worker while its Redis is down', () => {
  let redis: RedisServer | undefined;
  let world: JobWorld | undefined;
  let worker: ChildProcess | undefined;
  afterEach(async () => {
    worker?.kill('SIGKILL');
    await redis?.stop();
    await world?.server.close();
  });

  it('says one line when Redis goes and one when it is back, and prints no error objects', async () => {
    redis = await startRedis();
    world = await makeWorld(['--queue', redis.url]);
    let said = '';
    const until = (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const look = () => pattern.test(said) && resolve();
        worker?.stderr?.on('data', look);
        worker?.once('exit', (code) => reject(new Error(`the worker exited (${code}): ${said}`)));
        look();
      });
    void world.jobs(['worker'], { onSpawn: (child) => (worker = child) });
    worker?.stderr?.on('data', (chunk: Buffer | string) => {
      said += String(chunk);
    });
    await until(/is taking jobs/);
    const { port } = redis;
    await redis.stop();
    await until(/lost Redis/);
    // Down long enough for every connection to retry a few times.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    redis = await startRedis(port);
    await until(/is back/);
    const lines = said.trim().split('\n');
    expect(lines.every((line) => line.startsWith('lathe: '))).toBe(true);
    // The first error names the outage: a reset of the open connection or a refused reconnect,
    // whichever the worker meets first as redis-server goes.
    const lost = lines.filter((line) => /lost Redis/.test(line));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(
      new RegExp(
        `^lathe: lost Redis at 127\\.0\\.0\\.1:${port} \\((ECONNREFUSED|ECONNRESET)\\); waiting for it to come back$`,
      ),
    );
    expect(lines.filter((line) => /is back/.test(line))).toEqual([
      `lathe: Redis at 127.0.0.1:${port} is back`,
    ]);
  }, 60_000);
});
