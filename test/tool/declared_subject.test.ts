import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { SettingsLayer } from '../../src/config/types.js';
import { createRuntime, type Runtime } from '../../src/runtime/create_runtime.js';
import { buildTool } from '../../src/tool/build_tool.js';
import { declaredSubject, namedPaths } from '../../src/tool/declared_subject.js';
import { NO_FACTS } from '../../src/tool/facts.js';
import type { Tool, ToolKind } from '../../src/tool/types.js';
import { absolutePath } from '../../src/tools/shared/paths.js';
import { tempDir, writeTree } from '../support/runtime_fixtures.js';

// Tools as a new contributor might write them: a kind, what they change, and no permissionSubject.
/** A read tool that shows the file its input names in the field `field`. */
const reader = (name: string, field: string) =>
  buildTool({
    name,
    description: 'Shows a file.',
    inputSchema: z.object({ [field]: z.string() }),
    availability: { profiles: ['standard'] },
    kind: 'read',
    isReadOnly: () => true,
    call: async (input, ctx) => ({ text: readFileSync(absolutePath(ctx, input[field] as string), 'utf8') }),
  });
const peek = reader('peek', 'path');
/** Names its file in a field no rule of thumb knows. */
const recall = reader('recall', 'key');
const stamp = buildTool({
  name: 'stamp',
  description: 'Writes a stamp into a file.',
  inputSchema: z.object({ path: z.string() }),
  availability: { profiles: ['standard'] },
  kind: 'edit',
  touchedPaths: (input) => [input.path],
  call: async (input, ctx) => {
    writeFileSync(absolutePath(ctx, input.path), 'stamped\n');
    return { text: 'stamped' };
  },
});

const made: Runtime[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((rt) => rt.dispose()));
});

function runtime(settings: SettingsLayer = {}, yolo = false) {
  const dir = writeTree({ 'secret.txt': 'TOKEN=hunter2\n', 'a.txt': 'a\n', '.git/config': '[core]\n' });
  const rt = createRuntime({
    cwd: dir,
    documentsRoot: tempDir('lathe-home-'),
    env: {},
    settings,
    yolo,
    programTools: [peek, stamp, recall] as Tool[],
  });
  made.push(rt);
  return { dir, rt };
}

describe('a read tool that declares no permission subject', () => {
  it('is refused by a read_file deny rule, even under --yolo', async () => {
    const { rt } = runtime({ permissions: { deny: ['read_file(secret.txt)'] } }, true);
    const result = await rt.runTool('peek', { path: 'secret.txt' });
    expect(result.text).toMatch(/^Not run: .*secret\.txt is denied by rule read_file\(secret\.txt\)/);
    expect((await rt.runTool('peek', { path: 'a.txt' })).text).toBe('a\n');
  });
  it('asks before reading outside the workspace', async () => {
    const outside = join(tempDir(), 'x.txt');
    writeFileSync(outside, 'outside\n');
    const result = await runtime().rt.runTool('peek', { path: outside });
    expect(result.text).toMatch(/^Not run: peek needs approval \(category readOutside\)/);
  });
  it('with no field that names a path, judges each string of its input as a path', async () => {
    const { rt } = runtime({ permissions: { deny: ['read_file(secret.txt)'] } }, true);
    expect((await rt.runTool('recall', { key: 'secret.txt' })).text).toMatch(/^Not run: .*denied by rule/);
    expect((await rt.runTool('recall', { key: 'a.txt' })).text).toBe('a\n');
    const outside = join(tempDir(), 'x.txt');
    writeFileSync(outside, 'outside\n');
    expect((await runtime().rt.runTool('recall', { key: outside })).text).toMatch(/category readOutside/);
  });
});

describe('an edit tool that declares no permission subject', () => {
  it('asks before writing, and with no one to ask does not write', async () => {
    const { dir, rt } = runtime();
    expect((await rt.runTool('stamp', { path: 'a.txt' })).text).toMatch(/needs approval \(category edit\)/);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('a\n');
  });
  it('asks as editOutside outside the workspace', async () => {
    const outside = join(tempDir(), 'x.txt');
    expect((await runtime().rt.runTool('stamp', { path: outside })).text).toMatch(/category editOutside/);
    expect(existsSync(outside)).toBe(false);
  });
  it('cannot write .git/config, even under --yolo', async () => {
    const { dir, rt } = runtime({}, true);
    expect((await rt.runTool('stamp', { path: '.git/config' })).text).toMatch(/protected/);
    expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
  });
  it('is refused by a write_to_file deny rule', async () => {
    const { rt } = runtime({ permissions: { deny: ['write_to_file(a.txt)'] } }, true);
    expect((await rt.runTool('stamp', { path: 'a.txt' })).text).toMatch(
      /^Not run: .*denied by rule write_to_file/,
    );
  });
});

describe('the subject derived from a declaration', () => {
  const subject = (kind: ToolKind, input: unknown, touched?: string[]) =>
    declaredSubject<unknown>({ kind, touchedPaths: touched && (() => touched) })(
      input,
      { cwd: '/w', workspace: '/w' } as never,
      NO_FACTS,
    );
  it('names the paths of the fields that name paths, else every string', () => {
    const input = { path: 'a', paths: ['b', 3], file_path: 'c', sourceFile: 'd', name: 'e', profile: 'f' };
    expect(namedPaths(input)).toEqual(['a', 'b', 'c', 'd']);
    expect(namedPaths({ id: '42', tags: ['x'], count: 3 })).toEqual(['42', 'x']);
    expect(namedPaths('a')).toEqual([]);
  });
  it('fails closed for every kind that reads, changes or runs', () => {
    expect(subject('read', { path: 'a' })).toEqual({ kind: 'read', paths: ['a'] });
    expect(subject('search', {})).toEqual({ kind: 'read', paths: [] });
    expect(subject('delete', { path: 'a' })).toEqual({ kind: 'edit', paths: ['a'] });
    expect(subject('move', {})).toEqual({ kind: 'edit', paths: [] });
    expect(subject('edit', { path: 'a' }, ['b'])).toEqual({ kind: 'edit', paths: ['b'] });
    expect(subject('execute', {})).toEqual({ kind: 'execute', readOnlyCommand: false });
    expect(subject('fetch', {})).toEqual({ kind: 'web' });
    expect(subject('agent', {})).toEqual({ kind: 'subagents' });
  });
  it('leaves nothing to check only for the kinds that touch nothing, unless they change files', () => {
    for (const kind of ['think', 'conversation', 'other'] as const)
      expect(subject(kind, {})).toEqual({ kind: 'none' });
    expect(subject('other', {}, ['x'])).toEqual({ kind: 'edit', paths: ['x'] });
  });
});
