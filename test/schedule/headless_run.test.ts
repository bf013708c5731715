import { afterEach, describe, expect, it } from 'vitest';
import { ScheduleHost } from '../../src/schedule/schedule_host.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { eventually } from '../tasks/helpers.js';

const hosts: ScheduleHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

describe('the command a scheduled run starts', () => {
  it('is the one passed down; without it, a due prompt is not run and a notice says why', async () => {
    const host = new ScheduleHost({
      documentsRoot: tempDir('lathe-home-'),
      workspace: tempDir(),
      env: process.env,
      pollMs: 100,
    });
    hosts.push(host);
    const job = await host.createCron({ schedule: '*/1 * * * * *', prompt: 'tick', recurring: false });
    const notices = await eventually(() => {
      const taken = host.takeNotices();
      return taken.length > 0 ? taken : undefined;
    });
    expect(notices).toEqual([
      `cron job ${job.id}: cannot start a headless run: this lathe was started without the path of its command (createRuntime option latheBin).`,
    ]);
  });
});
