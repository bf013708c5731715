import { existsSync, mkdtempSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/create_runtime.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The scenarios of the Codex CLI project (Apache-2.0; see test/fixtures/NOTICE). */
const fixturesDir = path.resolve(here, '../fixtures/apply_patch');
/** lathe's own scenarios, in the same layout (see its README). */
const ownFixturesDir = path.resolve(here, '../fixtures/apply_patch_lathe');

/** lathe is atomic: where the reference keeps a partial change, the tree must equal input/. */
const ATOMIC_EXCEPTIONS = new Set(['015_failure_after_partial_success_leaves_changes']);

type Snapshot = Map<string, 'dir' | Buffer>;

async function snapshot(root: string): Promise<Snapshot> {
  const result: Snapshot = new Map();
  if (!existsSync(root)) return result;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = path.relative(root, full).split(path.sep).join('/');
      const stat = await fs.stat(full);
      if (stat.isDirectory()) {
        result.set(relative, 'dir');
        await walk(full);
      } else if (stat.isFile()) {
        result.set(relative, await fs.readFile(full));
      }
    }
  };
  await walk(root);
  return new Map([...result.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function printable(snap: Snapshot): Record<string, string> {
  return Object.fromEntries(
    [...snap].map(([key, value]) => [key, value === 'dir' ? '<dir>' : value.toString('utf8')]),
  );
}

async function scenarioFolders(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(dir, entry.name))
    .sort();
}

const scenarios = await scenarioFolders(fixturesDir);
const ownScenarios = await scenarioFolders(ownFixturesDir);

const tempDirs: string[] = [];
const home = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lathe-home-'));
  tempDirs.push(dir);
  return dir;
};
afterEach(async () => {
  await Promise.all(tempDirs.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describe('apply_patch scenarios', () => {
  it("finds the 23 reference scenario folders and lathe's own 7", () => {
    expect(scenarios).toHaveLength(23);
    expect(ownScenarios).toHaveLength(7);
  });

  it.each([...scenarios, ...ownScenarios].map((dir) => [path.relative(here, dir), dir]))(
    '%s',
    async (_, scenarioDir) => {
      const scenario = path.basename(scenarioDir);
      const work = await fs.mkdtemp(path.join(os.tmpdir(), 'lathe-apply-patch-'));
      tempDirs.push(work);
      const input = path.join(scenarioDir, 'input');
      if (existsSync(input)) await fs.cp(input, work, { recursive: true, dereference: true });

      const patchText = await fs.readFile(path.join(scenarioDir, 'patch.txt'), 'utf8');
      // The real tool through the call pipeline (parse, validate, permission, call), as a model runs it.
      const runtime = createRuntime({ cwd: work, documentsRoot: home(), approve: ['edit'], env: {} });
      const result = await runtime.runTool('apply_patch', { input: patchText });
      const outcome = { ok: !result.isError, error: result.text };

      const expectedRoot = ATOMIC_EXCEPTIONS.has(scenario) ? input : path.join(scenarioDir, 'expected');
      const actual = await snapshot(work);
      const expected = await snapshot(expectedRoot);
      expect(printable(actual)).toEqual(printable(expected));
      expect([...actual.keys()]).toEqual([...expected.keys()]);
      for (const [key, value] of expected) {
        const got = actual.get(key);
        expect(value === 'dir' ? got === 'dir' : Buffer.isBuffer(got) && value.equals(got), key).toBe(true);
      }
      // Failing scenarios must fail with a message, not silently.
      const mustFail = /rejects|fails|requires_existing|failure_after/.test(scenario);
      expect(outcome.ok, outcome.error).toBe(!mustFail);
      if (mustFail) expect(outcome.error).toMatch(/\S/);
    },
  );
});
