import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSkills } from '../../../src/config/skills/index.js';
import { findTool } from '../../../src/tool/pool.js';
import { builtinTools } from '../../../src/tools/index.js';
import { tempDir } from '../../support/runtime_fixtures.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'skills');
const CONFORMANCE = join(FIXTURES, 'conformance');
const GOLDEN = join(FIXTURES, 'conformance.expected.json');

/** The conformance folders as a workspace's .agents/skills/, discovered as a trusted run would. */
function discoverConformance() {
  const workspace = tempDir();
  cpSync(CONFORMANCE, join(workspace, '.agents', 'skills'), { recursive: true });
  const tools = builtinTools();
  const found = discoverSkills({
    workspace,
    documentsRoot: tempDir('lathe-home-'),
    home: tempDir('home-'),
    includeWorkspace: true,
    isTool: (name) => findTool(tools, name) !== undefined,
  });
  return {
    warnings: found.warnings,
    skills: found.skills.map(({ path, folder, warnings, ...skill }) => ({
      ...skill,
      file: path.slice(workspace.length + 1),
    })),
  };
}

describe('the skill conformance set', () => {
  it('holds at least 20 skill folders, valid and invalid', () => {
    const folders = readdirSync(CONFORMANCE, { withFileTypes: true }).filter((e) => e.isDirectory());
    expect(folders.length).toBeGreaterThanOrEqual(20);
  });

  it('gives exactly the warnings and skills of the golden file', () => {
    const actual = discoverConformance();
    // LATHE_UPDATE_GOLDEN=1 rewrites the golden file after a deliberate change (review its diff).
    if (process.env.LATHE_UPDATE_GOLDEN === '1')
      writeFileSync(GOLDEN, `${JSON.stringify(actual, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(GOLDEN, 'utf8'));
    expect(actual.warnings).toEqual(expected.warnings);
    expect(actual.skills).toEqual(expected.skills);
  });

  it('drops no folder unseen: each is a skill or named in a warning', () => {
    const { warnings, skills } = discoverConformance();
    const loaded = new Set(skills.map((s) => s.file.split('/')[2]));
    for (const entry of readdirSync(CONFORMANCE)) {
      if (entry === 'README.md') continue;
      const named = warnings.some((w) => w.startsWith(`.agents/skills/${entry}`));
      expect(loaded.has(entry) || named, entry).toBe(true);
    }
  });
});
