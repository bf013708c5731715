import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LanguageServers } from '../../src/lsp/language_servers.js';
import { externalTool } from '../../src/mcp/external_tool.js';
import { servedTools } from '../../src/mcp/server.js';
import { createRuntime } from '../../src/runtime/create_runtime.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import { changesFiles, looksOnly } from '../../src/tool/kinds.js';
import type { Tool, ToolKind } from '../../src/tool/types.js';
import { readFileTool } from '../../src/tools/files/read_file.js';
import { builtinTools } from '../../src/tools/index.js';
import { type FakeImageServer, startFakeImageServer } from '../support/fake_image_server.js';
import { tempDir, testContext, writeTree } from '../support/runtime_fixtures.js';

const KINDS: readonly ToolKind[] = [
  'read',
  'search',
  'edit',
  'delete',
  'move',
  'execute',
  'fetch',
  'think',
  'conversation',
  'agent',
  'other',
];

/** Every tool lathe has: the built-ins of every profile and feature, and a tool an MCP server offers. */
const mcpTool = externalTool({
  name: 'docs__search',
  server: 'docs',
  remote: { name: 'search', description: 'Search the docs.', inputSchema: { type: 'object' } },
  call: async () => ({ text: '' }),
});
const everyTool: Tool[] = [...builtinTools(), mcpTool];

/** Every file under `dir` with its content, by path relative to it. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/** Runs a tool's example in a fresh workspace holding its files, each read first as a model would. */
// generate_image's example draws with a local stand-in for the images API.
let images: FakeImageServer;
beforeAll(async () => {
  images = await startFakeImageServer();
});
afterAll(() => images.close());

async function runExample(tool: Tool) {
  const example = tool.example!;
  const workspace = Object.keys(example.files ?? {}).length > 0 ? writeTree(example.files!) : tempDir();
  // rename needs a language server: it gets the bundled TypeScript one.
  const languageServers = tool.name === 'rename' ? new LanguageServers() : undefined;
  const ctx = {
    ...testContext({ workspace }),
    tasks: new Map(),
    images: { model: 'openai/gpt-image-1', env: images.env },
    signal: new AbortController().signal,
    ...(languageServers ? { languageServers } : {}),
  };
  for (const path of Object.keys(example.files ?? {})) await readFileTool.call({ path }, ctx);
  const input = (tool.inputSchema as z.ZodType).parse(example.input);
  const before = snapshot(workspace);
  const preview = await tool.describeChange(input, ctx);
  const output = await tool.call(input, ctx).finally(() => languageServers?.dispose());
  return { workspace, input, preview, output, changed: changedFiles(before, snapshot(workspace)) };
}

describe('every tool declares what it is', () => {
  it.each(everyTool.map((t) => [t.name, t] as const))('%s has a kind and a title', (_, tool) => {
    expect(KINDS).toContain(tool.kind);
    const title = tool.userFacingName(undefined);
    expect(title.trim()).not.toBe('');
    // A title is for people: not the snake_case name the model calls it by.
    expect(title).not.toBe(tool.name);
  });

  it.each(everyTool.map((t) => [t.name, t] as const))('%s: kind and declarations agree', (_, tool) => {
    // The tools that change files say which; edit tools all do.
    if (tool.kind === 'edit') expect(changesFiles(tool), 'an edit tool declares touchedPaths').toBe(true);
    if (changesFiles(tool)) expect(['edit', 'delete', 'move']).toContain(tool.kind);
    // Only a tool that changes files can be refused for changing them.
    if (tool.refusedInStrictPlan) expect(changesFiles(tool)).toBe(true);
    if (tool.needsAgent) expect(['conversation', 'think', 'agent']).toContain(tool.kind);
    if (looksOnly(tool)) expect(changesFiles(tool)).toBe(false);
  });

  const needingExamples = everyTool.filter((t) => looksOnly(t) || changesFiles(t));
  it.each(needingExamples.map((t) => [t.name, t] as const))('%s gives an example call', (_, tool) => {
    expect(tool.example, `${tool.name} reads or changes files: declare an example call`).toBeDefined();
  });
});

describe('declarations match what the calls do', () => {
  const readers = builtinTools().filter((t) => looksOnly(t) && t.example);
  it.each(readers.map((t) => [t.name, t] as const))('%s (reads) changes no file', async (_, tool) => {
    const run = await runExample(tool);
    expect(run.changed).toEqual([]);
    // It leaves the workspace alone, whatever the contract's readOnly flag says (tool_search's is false).
    expect(tool.planModeAllowed(run.input, NO_FACTS)).toBe(true);
  });

  const changers = builtinTools().filter((t) => changesFiles(t));
  it.each(changers.map((t) => [t.name, t] as const))(
    '%s changes exactly the files it declares',
    async (_, tool) => {
      const run = await runExample(tool);
      expect(run.output.isError ?? false, run.output.text).toBe(false);
      expect(run.changed.length).toBeGreaterThan(0);
      const touched = tool.touchedPaths!(run.input, { cwd: run.workspace, workspace: run.workspace });
      const covers = (file: string) =>
        touched.some((t) =>
          picomatch.scan(t).isGlob
            ? picomatch(t)(file)
            : resolve(run.workspace, t) === resolve(run.workspace, file),
        );
      for (const file of run.changed) expect(covers(file), `${file} is not in ${touched}`).toBe(true);
      if (run.preview) {
        // The change shown before the call names the same files and has a diff.
        expect(run.preview.diff).not.toBe('');
        expect(run.preview.paths.map((p) => resolve(run.workspace, p)).sort()).toEqual(
          run.changed.map((p) => resolve(run.workspace, p)),
        );
      }
    },
    90_000,
  );
});

describe('Strict Plan Mode', () => {
  const strictRuntime = (files: Record<string, string>) => {
    const workspace = Object.keys(files).length > 0 ? writeTree(files) : tempDir();
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      mode: 'plan',
      strictPlanMode: true,
      env: {},
      // Tools behind a feature or a setting are offered, so that Plan mode is what refuses them.
      features: ['image_generation'],
      settings: { images: { model: 'openai/gpt-image-1' } },
    });
    return { workspace, runtime };
  };
  const refused = builtinTools().filter((t) => t.refusedInStrictPlan);
  it.each(refused.map((t) => [t.name, t] as const))('refuses %s, which changes files', async (_, tool) => {
    const { workspace, runtime } = strictRuntime(tool.example?.files ?? {});
    const before = snapshot(workspace);
    const result = await runtime.runTool(tool.name, tool.example!.input);
    expect(result.text).toMatch(/Strict Plan Mode/);
    expect(snapshot(workspace)).toEqual(before);
  });
  it('lets a read-only call of such a tool run (replace_text with preview)', async () => {
    const { runtime } = strictRuntime({ 'src/a.ts': 'let a = 1;\n' });
    const result = await runtime.runTool('replace_text', {
      glob: 'src/**/*.ts',
      find: 'a',
      replace: 'b',
      preview: true,
    });
    expect(result).toMatchObject({ isError: false, text: expect.stringMatching(/^Preview/) });
  });
});

describe('a deny rule on what an example call touches refuses it', () => {
  /** Every path the call touches, as rules name them: its files, the folders they lie in, the workspace. */
  const touchedWithFolders = (tool: Tool, workspace: string): string[] => {
    const files = changesFiles(tool)
      ? tool.touchedPaths!(tool.example!.input, { cwd: workspace, workspace }).map((p) =>
          relative(workspace, resolve(workspace, p)),
        )
      : Object.keys(tool.example!.files ?? {});
    const paths = new Set(['.']);
    for (const file of files) for (let p = file; p !== '.'; p = dirname(p)) paths.add(p);
    return [...paths];
  };
  // The tools that read files in their example, and every tool that changes files.
  const touching = builtinTools().filter(
    (t) => t.example && (changesFiles(t) || (looksOnly(t) && Object.keys(t.example.files ?? {}).length > 0)),
  );
  it.each(touching.map((t) => [t.name, t] as const))(
    'refuses %s, even under --yolo',
    async (_, tool) => {
      const workspace = writeTree(tool.example!.files ?? { '.keep': '' });
      const ruleTool = changesFiles(tool) ? 'write_to_file' : 'read_file';
      const runtime = createRuntime({
        cwd: workspace,
        documentsRoot: tempDir('lathe-home-'),
        env: {},
        yolo: true,
        features: ['image_generation', 'monitor', 'assistant', 'lsp'],
        settings: {
          images: { model: 'openai/gpt-image-1' },
          permissions: { deny: touchedWithFolders(tool, workspace).map((p) => `${ruleTool}(${p})`) },
        },
      });
      const before = snapshot(workspace);
      const result = await runtime.runTool(tool.name, tool.example!.input).finally(() => runtime.dispose());
      expect(result.text).toMatch(/^Not run: .*denied by rule/);
      expect(snapshot(workspace)).toEqual(before);
    },
    90_000,
  );
});

describe('lathe mcp serve offers the tools that need no agent', () => {
  const profiles = ['standard', 'lite', 'simple'] as const;
  it.each(profiles)('in the %s profile: served exactly when needsAgent is false', (profile) => {
    const workspace = tempDir();
    const runtime = createRuntime({
      cwd: workspace,
      documentsRoot: tempDir('lathe-home-'),
      profile,
      features: ['focus_chain', 'tasks', 'triggers', 'remote_triggers', 'monitor', 'proactive'],
    });
    const served = new Set(servedTools(runtime).map((t) => t.name));
    for (const tool of runtime.pool) expect(served.has(tool.name), tool.name).toBe(!tool.needsAgent);
    if (profile === 'standard') expect(runtime.pool.map((t) => t.name)).toContain('change_todo_list');
  });
});

describe('destroysExisting', () => {
  const named = (name: string) => builtinTools().find((t) => t.name === name)!;
  it('is said of the calls that delete or overwrite', () => {
    expect(named('write_to_file').destroysExisting({ path: 'a', content: '' }, NO_FACTS)).toBe(true);
    const patch = (body: string) => ({ input: `*** Begin Patch\n${body}\n*** End Patch` });
    expect(named('apply_patch').destroysExisting(patch('*** Delete File: a.txt'), NO_FACTS)).toBe(true);
    expect(named('apply_patch').destroysExisting(patch('*** Add File: a.txt\n+x'), NO_FACTS)).toBe(false);
    expect(named('kill_command').destroysExisting({ id: 'x' }, NO_FACTS)).toBe(true);
    expect(named('task_stop').destroysExisting({ id: 'x' }, NO_FACTS)).toBe(true);
    expect(named('cron_delete').destroysExisting({ id: 'x' }, NO_FACTS)).toBe(true);
    expect(named('notebook_edit').destroysExisting({ path: 'n.ipynb', edit_mode: 'delete' }, NO_FACTS)).toBe(
      true,
    );
    expect(
      named('edit_file').destroysExisting({ path: 'a', old_string: 'x', new_string: 'y' }, NO_FACTS),
    ).toBe(false);
    expect(named('read_file').destroysExisting({ path: 'a' }, NO_FACTS)).toBe(false);
  });

  it('is lathe’s own fact: the contract’s destructive flag of these tools is false', () => {
    for (const name of ['write_to_file', 'task_stop', 'cron_delete', 'notebook_edit'])
      expect(
        named(name).isDestructive(
          { id: 'x', path: 'a', content: '', edit_mode: 'delete' } as never,
          NO_FACTS,
        ),
        name,
      ).toBe(false);
  });
});
