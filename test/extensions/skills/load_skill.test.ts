import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { skillCommands } from '../../../src/config/skills/index.js';
import { grantTools } from '../../../src/permission/grants.js';
import { createRuntime, type Runtime } from '../../../src/runtime/create_runtime.js';
import { tempDir, testContext, writeTree } from '../../support/runtime_fixtures.js';

const PDF_SKILL = `---
name: pdf-tools
description: Extracts text from PDF files.
allowed-tools: Bash(touch:*) Read
argument-hint: "[file]"
---
Run scripts/extract.py on $ARGUMENTS.
`;

let runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.map((r) => r.dispose()));
  runtimes = [];
});

function runtimeWith(userSkills: Record<string, string>, workspaceFiles: Record<string, string> = {}) {
  const documentsRoot = writeTree(
    Object.fromEntries(Object.entries(userSkills).map(([path, text]) => [`skills/${path}`, text])),
    'lathe-home-',
  );
  const workspace = Object.keys(workspaceFiles).length > 0 ? writeTree(workspaceFiles) : tempDir();
  const runtime = createRuntime({ cwd: workspace, documentsRoot, env: { NODE_ENV: 'test' } });
  runtimes.push(runtime);
  return { runtime, documentsRoot, workspace };
}

const names = (runtime: Runtime) => runtime.pool.map((tool) => tool.name);

describe('load_skill is offered', () => {
  it('not when there is no skill', () => {
    const { runtime } = runtimeWith({});
    expect(names(runtime)).not.toContain('load_skill');
  });

  it('when a skill exists, and not when the only skill is the user’s to start', () => {
    expect(names(runtimeWith({ 'pdf-tools/SKILL.md': PDF_SKILL }).runtime)).toContain('load_skill');
    const userOnly =
      '---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\nDeploy.\n';
    expect(names(runtimeWith({ 'deploy/SKILL.md': userOnly }).runtime)).not.toContain('load_skill');
  });

  it('not for skills of a workspace that is not trusted, which wait with a warning', () => {
    const { runtime } = runtimeWith({}, { '.agents/skills/pdf-tools/SKILL.md': PDF_SKILL });
    expect(names(runtime)).not.toContain('load_skill');
    expect(runtime.warnings).toContain(
      '1 workspace skill (.agents/skills) waits for trust: run `lathe trust` or pass --trust',
    );
  });
});

describe('load_skill', () => {
  it('returns the instructions as they are on disk now, and the skill’s files to read', async () => {
    const { runtime, documentsRoot } = runtimeWith({
      'pdf-tools/SKILL.md': PDF_SKILL,
      'pdf-tools/scripts/extract.py': 'print(1)\n',
      'pdf-tools/references/forms.md': '# Forms\n',
      'pdf-tools/.cache/x': 'hidden\n',
    });
    const folder = join(documentsRoot, 'skills', 'pdf-tools');
    writeFileSync(join(folder, 'SKILL.md'), PDF_SKILL.replace('Run scripts', 'Now run scripts'));
    const result = await runtime.runTool('load_skill', { name: 'pdf-tools' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain(`<skill name="pdf-tools" folder="${folder}">\nNow run scripts/extract.py`);
    expect(result.text).toContain(
      `- ${join(folder, 'references/forms.md')}\n- ${join(folder, 'scripts/extract.py')}`,
    );
    expect(result.text).not.toContain('.cache');
    expect(result.data).toMatchObject({
      resources: [join(folder, 'references/forms.md'), join(folder, 'scripts/extract.py')],
    });
  });

  it('names the skills there are when asked for one that is not', async () => {
    const { runtime } = runtimeWith({ 'pdf-tools/SKILL.md': PDF_SKILL });
    const result = await runtime.runTool('load_skill', { name: 'pdf' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringContaining('No skill is named "pdf". The skills: pdf-tools.'),
    });
  });

  it('refuses a skill only the user may start', async () => {
    const userOnly =
      '---\nname: deploy\ndescription: Deploys.\ndisable-model-invocation: true\n---\nDeploy.\n';
    const { runtime } = runtimeWith({ 'pdf-tools/SKILL.md': PDF_SKILL, 'deploy/SKILL.md': userOnly });
    const result = await runtime.runTool('load_skill', { name: 'deploy' });
    expect(result).toMatchObject({
      isError: true,
      text: expect.stringContaining('only for the user to run (/deploy)'),
    });
  });

  it('grants nothing outside an agent’s prompt, and says so', async () => {
    const { runtime } = runtimeWith({ 'pdf-tools/SKILL.md': PDF_SKILL });
    const before = runtime.permissions.rules.length;
    const result = await runtime.runTool('load_skill', { name: 'pdf-tools' });
    expect(result.text).toContain("pre-approved only inside an agent's prompt");
    expect(runtime.permissions.rules.length).toBe(before);
  });
});

describe('grantTools', () => {
  it('adds allow rules and takes exactly those out again, once', () => {
    const { permissions } = testContext({ settings: { permissions: { allow: ['glob'] } } });
    const engine = permissions as unknown as Parameters<typeof grantTools>[0];
    const problems: string[] = [];
    const release = grantTools(engine, ['execute_command(touch:*)', 'not a rule('], 'skill x', (p) =>
      problems.push(p),
    );
    expect(engine.rules.map((r) => `${r.action} ${r.tool}(${r.pattern ?? ''}) ${r.source}`)).toEqual([
      expect.stringMatching(/^allow glob\(\) /),
      'allow execute_command(touch:*) skill x',
    ]);
    expect(problems).toEqual([expect.stringContaining('"not a rule("')]);
    release();
    release();
    expect(engine.rules.map((r) => r.tool)).toEqual(['glob']);
  });
});

describe('/<skill-name> as a prompt command', () => {
  it('is made for each skill the user may start: its instructions with the arguments, and its allowed-tools', async () => {
    const { runtime } = runtimeWith({
      'pdf-tools/SKILL.md': PDF_SKILL,
      'billing/SKILL.md':
        '---\nname: billing\ndescription: Billing facts.\nuser-invocable: false\n---\nFacts.\n',
      'notes/SKILL.md': '---\nname: notes\ndescription: Notes.\n---\nWrite notes.\n',
    });
    const commands = skillCommands(runtime.skills.all);
    expect(commands.map((c) => `${c.kind}:${c.name}:${c.argumentHint ?? ''}`)).toEqual([
      'skill:notes:',
      'skill:pdf-tools:[file]',
    ]);
    const context = { cwd: runtime.workspace, workspace: runtime.workspace, runShell: async () => '' };
    const pdf = await commands[1].expand(' report.pdf ', context);
    expect(pdf.text).toContain('Use the skill "pdf-tools" for this request');
    expect(pdf.text).toContain('Run scripts/extract.py on report.pdf.');
    expect(pdf.allowedTools).toEqual(['execute_command(touch:*)', 'read_file']);
    const notes = await commands[0].expand('for Monday', context);
    expect(notes.text).toContain('Write notes.\n\nArguments: for Monday\n</skill>');
  });
});
