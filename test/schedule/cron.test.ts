import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CronStore } from '../../src/schedule/cron_store.js';
import { type ScheduledPromptEvent, ScheduleHost } from '../../src/schedule/schedule_host.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { findTool } from '../../src/tool/pool.js';
import { builtinTools } from '../../src/tools/index.js';
import { testNeeds } from '../support/required_programs.js';
import { tempDir } from '../support/runtime_fixtures.js';
import { disposeAll, eventually, runtimeWith } from '../tasks/helpers.js';

const hosts: ScheduleHost[] = [];
afterEach(async () => {
  await disposeAll();
  await Promise.all(hosts.splice(0).map((h) => h.dispose()));
});

const DAY_MS = 24 * 3600 * 1000;
const storeOf = (home: string) => JSON.parse(readFileSync(join(home, 'schedules', 'cron.json'), 'utf8'));

function host(documentsRoot: string, workspace: string, latheBin?: string): ScheduleHost {
  const made = new ScheduleHost({ documentsRoot, workspace, env: process.env, latheBin, pollMs: 100 });
  hosts.push(made);
  return made;
}

describe('cron_create / cron_list / cron_delete', () => {
  it('are offered with the triggers feature; only cron_list is read-only', () => {
    expect(runtimeWith([]).pool.map((t) => t.name)).not.toContain('cron_create');
    expect(runtimeWith(['triggers']).pool.map((t) => t.name)).toEqual(
      expect.arrayContaining(['cron_create', 'cron_delete', 'cron_list']),
    );
    const readOnly = (name: string) => findTool(builtinTools(), name)!.isReadOnly({}, NO_FACTS);
    expect([readOnly('cron_create'), readOnly('cron_delete'), readOnly('cron_list')]).toEqual([
      false,
      false,
      true,
    ]);
  });

  testNeeds('bwrap')('persist the schedule under documents-root, readable only by the user', async () => {
    const rt = runtimeWith(['triggers']);
    const created = await rt.runTool('cron_create', {
      schedule: '0 9 * * 1-5',
      prompt: 'summarise open PRs',
    });
    expect(created.text).toMatch(/^Scheduled cron_[0-9a-f]{8} \(0 9 \* \* 1-5, recurring\); next run \d{4}-/);
    const path = join(rt.documentsRoot, 'schedules', 'cron.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(storeOf(rt.documentsRoot).jobs).toEqual([
      expect.objectContaining({
        schedule: '0 9 * * 1-5',
        prompt: 'summarise open PRs',
        workspace: rt.workspace,
      }),
    ]);
    const id = (created.data as { id: string }).id;
    expect((await rt.runTool('cron_list', {})).text).toMatch(
      new RegExp(`^${id} 0 9 \\* \\* 1-5 \\(recurring\\): summarise open PRs; next `),
    );
    expect((await rt.runTool('cron_delete', { id })).text).toBe(
      `Deleted ${id} (0 9 * * 1-5): summarise open PRs`,
    );
    expect(storeOf(rt.documentsRoot).jobs).toEqual([]);
    expect((await rt.runTool('cron_delete', { id })).text).toBe(
      `No scheduled prompt ${id}. Scheduled: none.`,
    );
  });

  testNeeds('bwrap')('refuse an expression croner cannot read, saying why', async () => {
    const rt = runtimeWith(['triggers']);
    const r = await rt.runTool('cron_create', { schedule: 'every day', prompt: 'x' });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toMatch(/has 2 fields; use 5/);
    expect((await rt.runTool('cron_create', { schedule: '61 * * * *', prompt: 'x' })).text).toMatch(
      /not a cron expression/,
    );
  });

  testNeeds('bwrap')('report a schedule file that does not parse, and never overwrite it', async () => {
    const rt = runtimeWith(['triggers']);
    const path = join(rt.documentsRoot, 'schedules', 'cron.json');
    mkdirSync(join(rt.documentsRoot, 'schedules'));
    writeFileSync(path, '{"jobs": [ oops');
    const r = await rt.runTool('cron_create', { schedule: '0 9 * * *', prompt: 'x' });
    expect(r.text).toMatch(/cron\.json is not valid .*; fix or remove it/);
    expect(readFileSync(path, 'utf8')).toBe('{"jobs": [ oops');
  });
});

describe('the scheduler', () => {
  testNeeds('bwrap')('fires a due prompt into the handler the client installed', async () => {
    const rt = runtimeWith(['triggers']);
    const events: ScheduledPromptEvent[] = [];
    rt.onScheduledPrompt((event) => events.push(event));
    const created = await rt.runTool('cron_create', { schedule: '*/1 * * * * *', prompt: 'check the build' });
    const fired = await eventually(() => events.find((e) => e.kind === 'prompt'));
    expect(fired).toMatchObject({ jobId: (created.data as { id: string }).id, prompt: 'check the build' });
    await eventually(() => storeOf(rt.documentsRoot).jobs[0].lastRunAt);
  });

  testNeeds('bwrap')('runs a one-time prompt once, then forgets it', async () => {
    const rt = runtimeWith(['triggers']);
    const events: ScheduledPromptEvent[] = [];
    rt.onScheduledPrompt((event) => events.push(event));
    await rt.runTool('cron_create', { schedule: '*/1 * * * * *', prompt: 'once', recurring: false });
    await eventually(() => events.some((e) => e.kind === 'prompt'));
    await eventually(() => storeOf(rt.documentsRoot).jobs.length === 0);
    expect(events.filter((e) => e.kind === 'prompt')).toHaveLength(1);
  });

  it('reports runs missed while lathe was not running once, with the count and the last time, and never replays them', async () => {
    const workspace = tempDir();
    const home = tempDir('lathe-home-');
    const long = new Date(Date.now() - 10 * DAY_MS).toISOString();
    mkdirSync(join(home, 'schedules'));
    writeFileSync(
      join(home, 'schedules', 'cron.json'),
      JSON.stringify({
        jobs: [
          {
            id: 'cron_nightly',
            schedule: '0 0 * * *',
            prompt: 'nightly',
            recurring: true,
            workspace,
            createdAt: long,
          },
          {
            id: 'cron_once',
            schedule: '0 0 * * *',
            prompt: 'once',
            recurring: false,
            workspace,
            createdAt: long,
          },
          {
            id: 'cron_elsewhere',
            schedule: '0 0 * * *',
            prompt: 'x',
            recurring: true,
            workspace: '/elsewhere',
            createdAt: long,
          },
        ],
      }),
    );
    const first = runtimeWith(['triggers'], { cwd: workspace, documentsRoot: home });
    const events: ScheduledPromptEvent[] = [];
    first.onScheduledPrompt((event) => events.push(event));
    await eventually(() => events.filter((e) => e.kind === 'missed').length === 2);
    const nightly = events.find((e) => e.kind === 'missed' && e.jobId === 'cron_nightly');
    expect(nightly).toMatchObject({ kind: 'missed', prompt: 'nightly' });
    const { count, lastMissedAt } = nightly as Extract<ScheduledPromptEvent, { kind: 'missed' }>;
    expect(count).toBeGreaterThanOrEqual(9);
    expect(count).toBeLessThanOrEqual(11);
    expect(Date.now() - lastMissedAt.getTime()).toBeLessThan(DAY_MS + 10_000);
    expect(events.filter((e) => e.kind === 'missed' && e.jobId === 'cron_once')).toHaveLength(1);
    expect(events.filter((e) => e.kind === 'prompt')).toEqual([]);
    // The one-time prompt's moment has passed: it is gone. Another workspace's job is left alone.
    await eventually(() => storeOf(home).jobs.length === 2);
    const jobs = storeOf(home).jobs;
    expect(jobs[0]).toMatchObject({ id: 'cron_nightly', missed: { count } });
    expect(jobs[1]).toEqual(expect.objectContaining({ id: 'cron_elsewhere' }));
    expect(jobs[1].missed).toBeUndefined();
    await first.dispose();

    // The next start has nothing new to report; cron_list still shows what was missed.
    const second = runtimeWith(['triggers'], { cwd: workspace, documentsRoot: home });
    const listed = await second.runTool('cron_list', {});
    expect(listed.text).not.toMatch(/Notices/);
    expect(listed.text).toMatch(new RegExp(`cron_nightly .*missed ${count} while lathe was not running`));
  });

  it('without a handler, shows missed runs as a notice of the next cron tool', async () => {
    const workspace = tempDir();
    const home = tempDir('lathe-home-');
    mkdirSync(join(home, 'schedules'));
    // Daily, half a day away from now, so exactly three runs fall in the last three days.
    const now = new Date();
    const schedule = `${now.getMinutes()} ${(now.getHours() + 12) % 24} * * *`;
    const createdAt = new Date(now.getTime() - 3 * DAY_MS).toISOString();
    const job = { id: 'cron_daily', schedule, prompt: 'p', recurring: true, workspace, createdAt };
    writeFileSync(join(home, 'schedules', 'cron.json'), JSON.stringify({ jobs: [job] }));
    const rt = runtimeWith(['triggers'], { cwd: workspace, documentsRoot: home });
    const listed = await rt.runTool('cron_list', {});
    expect(listed.text).toMatch(
      /Notices:\n- cron job cron_daily \([\d *]+\) missed 3 runs while lathe was not running here, the last at \S+; missed runs are not replayed\./,
    );
    expect((await rt.runTool('cron_list', {})).text).not.toMatch(/Notices/);
  });

  it('without a handler, starts a headless run of the prompt in the workspace', async () => {
    const workspace = tempDir();
    const home = tempDir('lathe-home-');
    const bin = join(tempDir('lathe-bin-'), 'fake_lathe.mjs');
    writeFileSync(
      bin,
      'console.log(JSON.stringify({ argv: process.argv.slice(2), home: process.env.LATHE_HOME, cwd: process.cwd() }));\n',
    );
    const services = host(home, workspace, bin);
    await services.createCron({
      schedule: '*/1 * * * * *',
      prompt: '-p looks like an option',
      recurring: false,
    });
    const runs = join(home, 'schedules', 'runs');
    const log = await eventually(() => {
      const names = (() => {
        try {
          return readdirSync(runs);
        } catch {
          return [];
        }
      })();
      const text = names.length ? readFileSync(join(runs, names[0]), 'utf8') : '';
      return /# ended: exit code 0/.test(text) ? text : undefined;
    });
    expect(log).toMatch(/^# cron job cron_[0-9a-f]{8}, \S+, in \S+\n# prompt: "-p looks like an option"\n/);
    const printed = JSON.parse(log.split('\n')[2]);
    expect(printed).toEqual({
      argv: ['--cwd', workspace, '--print=-p looks like an option'],
      home,
      cwd: workspace,
    });
  });

  it('picks up a schedule another lathe process added', async () => {
    const workspace = tempDir();
    const home = tempDir('lathe-home-');
    const events: ScheduledPromptEvent[] = [];
    const running = host(home, workspace);
    running.setHandler((e) => events.push(e));
    await running.startScheduler();
    await new CronStore(home).add({
      schedule: '*/1 * * * * *',
      prompt: 'from elsewhere',
      recurring: true,
      workspace,
    });
    await eventually(() => events.some((e) => e.kind === 'prompt' && e.prompt === 'from elsewhere'));
  });

  it('fires each run once when two lathe processes share the store', async () => {
    const workspace = tempDir();
    const home = tempDir('lathe-home-');
    const fired: string[] = [];
    const a = host(home, workspace);
    const b = host(home, workspace);
    for (const h of [a, b])
      h.setHandler((e) => {
        if (e.kind === 'prompt') fired.push(e.scheduledFor.toISOString());
      });
    await a.createCron({ schedule: '*/1 * * * * *', prompt: 'tick', recurring: true });
    await b.startScheduler();
    await eventually(() => fired.length >= 3);
    expect(new Set(fired).size).toBe(fired.length);
  });
});
