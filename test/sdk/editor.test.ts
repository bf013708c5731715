import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { query } from '../../src/sdk/query.js';
import type { EditorAccess, EditorTerminal } from '../../src/tool/context/editor.js';
import { ProcessTerminal } from '../support/program_editor.js';
import { testNeeds } from '../support/required_programs.js';
import { closeSdkServers, sdkSetup } from './support.js';

afterEach(closeSdkServers);

const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'Done.' } }] };

/** An editor's buffers, by absolute path: what the program reads back, and every write it took. */
function bufferEditor(buffers: Map<string, string>) {
  const writes: Array<{ path: string; content: string }> = [];
  const editor: EditorAccess = {
    readTextFile: async (path) => buffers.get(path),
    writeTextFile: async (path, content) => {
      writes.push({ path, content });
      buffers.set(path, content);
    },
  };
  return { editor, writes };
}

/** The program's terminal, running each command as a real process. */
function programTerminal(): { terminal: EditorTerminal; processes: ProcessTerminal } {
  const processes = new ProcessTerminal();
  return {
    processes,
    terminal: { run: (c) => processes.run(c.argv, c.cwd, c.signal, c.outputLimit) },
  };
}

describe("the program's buffers", () => {
  it("are what the model reads, and its edit goes to the program's buffer, the disk untouched", async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'notes.txt', old_string: 'draft', new_string: 'final' } },
          ],
        },
        done,
      ],
      { 'notes.txt': 'saved text\n' },
    );
    const notes = join(cwd, 'notes.txt');
    const { editor, writes } = bufferEditor(new Map([[notes, 'draft text, not saved\n']]));
    await query({ prompt: 'finish the notes', options: { ...options, approve: ['edit'], editor } }).result;
    expect(modelRequests()[1].toolResults[0].content).toContain('1\tdraft text, not saved');
    expect(modelRequests()[2].toolResults[0].isError).toBeFalsy();
    expect(writes).toEqual([{ path: notes, content: 'final text, not saved\n' }]);
    expect(readFileSync(notes, 'utf8')).toBe('saved text\n');
  });

  it('leave a file the program does not hold to the disk for reading, and still take its write', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        {
          toolCalls: [
            {
              name: 'replace_in_file',
              input: { path: 'a.txt', diff: '------- SEARCH\nalpha\n=======\nbeta\n+++++++ REPLACE' },
            },
          ],
        },
        done,
      ],
      { 'a.txt': 'alpha\n' },
    );
    const { editor, writes } = bufferEditor(new Map());
    await query({ prompt: 'x', options: { ...options, approve: ['edit'], editor } }).result;
    expect(modelRequests()[1].toolResults[0].isError).toBeFalsy();
    expect(writes).toEqual([{ path: join(cwd, 'a.txt'), content: 'beta\n' }]);
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('take a patch over two files, one held and one on disk, through the program', async () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: held.txt',
      '-unsaved',
      '+patched',
      '*** Add File: new.txt',
      '+fresh',
      '*** End Patch',
    ].join('\n');
    const { options, cwd, modelRequests } = await sdkSetup(
      [{ toolCalls: [{ name: 'apply_patch', input: { input: patch } }] }, done],
      { 'held.txt': 'on disk\n' },
    );
    const held = join(cwd, 'held.txt');
    const { editor, writes } = bufferEditor(new Map([[held, 'unsaved\n']]));
    await query({ prompt: 'x', options: { ...options, approve: ['edit'], editor } }).result;
    expect(modelRequests()[1].toolResults[0].isError).toBeFalsy();
    expect(writes).toEqual([
      { path: held, content: 'patched\n' },
      { path: join(cwd, 'new.txt'), content: 'fresh\n' },
    ]);
    expect(readFileSync(held, 'utf8')).toBe('on disk\n');
  });

  it('edit a notebook as the program holds it', async () => {
    const notebook = (source: string) =>
      `${JSON.stringify({ cells: [{ cell_type: 'markdown', metadata: {}, source: [source] }], nbformat: 4, nbformat_minor: 4, metadata: {} }, null, 1)}\n`;
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'book.ipynb' } }] },
        {
          toolCalls: [
            {
              name: 'notebook_edit',
              input: { path: 'book.ipynb', edit_mode: 'replace', cell_number: 1, new_source: '# final' },
            },
          ],
        },
        done,
      ],
      { 'book.ipynb': notebook('# saved') },
    );
    const book = join(cwd, 'book.ipynb');
    const { editor, writes } = bufferEditor(new Map([[book, notebook('# unsaved')]]));
    await query({ prompt: 'x', options: { ...options, approve: ['edit'], editor } }).result;
    expect(modelRequests()[1].toolResults[0].content).toContain('# unsaved');
    expect(modelRequests()[2].toolResults[0].isError).toBeFalsy();
    expect(writes).toHaveLength(1);
    expect(JSON.parse(writes[0].content).cells[0].source).toEqual(['# final']);
    expect(readFileSync(book, 'utf8')).toBe(notebook('# saved'));
  });
});

describe('staleness against the buffer', () => {
  it('refuses an edit of a buffer the person changed since the model read it', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] },
        {
          toolCalls: [
            { name: 'edit_file', input: { path: 'notes.txt', old_string: 'one', new_string: 'two' } },
          ],
        },
        done,
      ],
      { 'notes.txt': 'one\n' },
    );
    const notes = join(cwd, 'notes.txt');
    const buffers = new Map([[notes, 'one\n']]);
    const { editor, writes } = bufferEditor(buffers);
    await query({
      prompt: 'x',
      options: {
        ...options,
        editor,
        // The person types in the buffer while the edit waits for approval.
        canUseTool: () => {
          buffers.set(notes, 'one, typed by the person\n');
          return { behavior: 'allow' };
        },
      },
    }).result;
    const result = modelRequests()[2].toolResults[0];
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/changed \(on disk or in the editor\) since it was read/);
    expect(writes).toEqual([]);
  });

  it('writes nothing when the buffer changes while the edit is being made', async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [
        {
          toolCalls: [
            {
              name: 'replace_in_file',
              input: { path: 'a.txt', diff: '------- SEARCH\nalpha\n=======\nbeta\n+++++++ REPLACE' },
            },
          ],
        },
        done,
      ],
      { 'a.txt': 'alpha\n' },
    );
    const path = join(cwd, 'a.txt');
    const { editor: base, writes } = bufferEditor(new Map());
    let reads = 0;
    // The first read is the edit's own; by the check before writing, the person has typed.
    const editor: EditorAccess = {
      ...base,
      readTextFile: async (p) => (p === path ? (++reads === 1 ? 'alpha\n' : 'alpha\ntyped\n') : undefined),
    };
    await query({ prompt: 'x', options: { ...options, approve: ['edit'], editor } }).result;
    const result = modelRequests()[1].toolResults[0];
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/changed since read.*Nothing was written/);
    expect(writes).toEqual([]);
  });
});

describe("the program's terminal", () => {
  testNeeds('bwrap')(
    "runs the command, wrapped in lathe's sandbox, and hands its output to the model",
    async () => {
      const { options, cwd, modelRequests } = await sdkSetup([
        { toolCalls: [{ name: 'execute_command', input: { command: 'echo from-the-terminal' } }] },
        done,
      ]);
      const { terminal, processes } = programTerminal();
      await query({ prompt: 'x', options: { ...options, editor: { terminal } } }).result;
      expect(processes.runs).toHaveLength(1);
      expect(processes.runs[0].argv[0]).toBe('bwrap');
      expect(processes.runs[0].argv.slice(-3)).toEqual(['bash', '-c', 'echo from-the-terminal']);
      expect(processes.runs[0].cwd).toBe(cwd);
      const result = modelRequests()[1].toolResults[0];
      expect(result.isError).toBeFalsy();
      expect(result.content).toContain('from-the-terminal');
      expect(result.content).toContain('Exit code 0.');
    },
  );

  it("never gets a command lathe's permission rules deny", async () => {
    const { options, cwd, modelRequests } = await sdkSetup(
      [{ toolCalls: [{ name: 'execute_command', input: { command: 'rm keep.txt' } }] }, done],
      { 'keep.txt': 'kept\n' },
    );
    const { terminal, processes } = programTerminal();
    await query({
      prompt: 'x',
      options: { ...options, yolo: true, disallowedTools: ['execute_command(rm *)'], editor: { terminal } },
    }).result;
    expect(processes.runs).toEqual([]);
    expect(modelRequests()[1].toolResults[0].content).toMatch(/denied by rule execute_command\(rm \*\)/);
    expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('kept\n');
  });

  testNeeds('bwrap')("stops a command at its timeout through the terminal's signal", async () => {
    const { options, modelRequests } = await sdkSetup([
      { toolCalls: [{ name: 'execute_command', input: { command: 'sleep 30', timeout: 1 } }] },
      done,
    ]);
    const { terminal, processes } = programTerminal();
    await query({ prompt: 'x', options: { ...options, editor: { terminal } } }).result;
    expect(processes.runs[0].stopped).toBe(true);
    expect(modelRequests()[1].toolResults[0].content).toContain('Stopped after 1 s (timeout)');
  });

  testNeeds('bwrap')('runs a background command there, and kill_command stops it', async () => {
    const { options, modelRequests } = await sdkSetup([
      {
        toolCalls: [{ name: 'execute_command', input: { command: 'sleep 30', run_in_background: true } }],
      },
      {
        respond: (request) => {
          const id = /as (cmd_[0-9a-f]+)/.exec(request.toolResults[0].content)?.[1] ?? 'missing';
          return { toolCalls: [{ name: 'kill_command', input: { id } }] };
        },
      },
      done,
    ]);
    const { terminal, processes } = programTerminal();
    await query({ prompt: 'x', options: { ...options, yolo: true, editor: { terminal } } }).result;
    expect(modelRequests()[1].toolResults[0].content).toMatch(/Started in the background as cmd_\w+\. /);
    expect(modelRequests()[2].toolResults[0].content).toMatch(/^Stopped cmd_\w+ \(sleep 30\)/);
    expect(processes.runs[0].stopped).toBe(true);
  });
});

describe('the editor option, checked', () => {
  it('refuses a part that is not a function, before anything starts', async () => {
    const { options } = await sdkSetup([done]);
    const editor = { readTextFile: 'buffers' } as unknown as EditorAccess;
    await expect(query({ prompt: 'x', options: { ...options, editor } }).result).rejects.toThrow(
      'editor.readTextFile must be a function',
    );
  });
});
