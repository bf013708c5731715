import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { WriteRefusedError } from '../../edit/atomic_write.js';
import { readRegularFile } from '../../edit/regular_file.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { sha256 } from '../files/read_text.js';
import { heldTextBytes } from '../shared/editor_text.js';
import { absolutePath, displayPath } from '../shared/paths.js';
import { writeTextChange } from './text_writes.js';
import { editFolderCheck } from './write_guard.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('The .ipynb file'),
    edit_mode: z
      .enum(['replace', 'insert', 'delete'])
      .describe('replace a cell, insert a new one, or delete one'),
    cell_id: z.string().optional().describe('The id of the cell to change (or, for insert, to insert after)'),
    cell_number: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('1-based cell number as read_file shows it; for insert, 0 inserts at the top'),
    new_source: z.string().optional().describe('The cell source (replace and insert)'),
    cell_type: z
      .enum(['code', 'markdown', 'raw'])
      .optional()
      .describe('Type of an inserted cell (default code)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata: Record<string, unknown>;
  outputs?: unknown[];
  execution_count?: number | null;
}

/** Source in nbformat's list-of-lines form. */
function sourceLines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

function findCell(cells: Cell[], input: Input): number | string {
  if (input.cell_id !== undefined) {
    const index = cells.findIndex((c) => c.id === input.cell_id);
    return index >= 0 ? index : `No cell has id "${input.cell_id}" (read the notebook to see the ids).`;
  }
  if (input.cell_number === undefined) return 'Give cell_id or cell_number.';
  if (input.edit_mode === 'insert' && input.cell_number === 0) return -1;
  if (input.cell_number < 1 || input.cell_number > cells.length) {
    return `cell_number ${input.cell_number} is out of range: the notebook has ${cells.length} cells.`;
  }
  return input.cell_number - 1;
}

function newCell(type: 'code' | 'markdown' | 'raw', source: string, withId: boolean): Cell {
  const cell: Cell = { cell_type: type, metadata: {}, source: sourceLines(source) };
  if (withId) cell.id = randomBytes(4).toString('hex');
  if (type === 'code') {
    cell.outputs = [];
    cell.execution_count = null;
  }
  return cell;
}

export const notebookEdit = buildTool({
  name: 'notebook_edit',
  inputSchema,
  description:
    'Edit a Jupyter notebook cell: replace its source, insert a new cell after the given one, or delete it. ' +
    'Cells are named by id or by the 1-based number read_file shows. Read the notebook first. Replacing a ' +
    'code cell clears its outputs. The notebook stays valid nbformat JSON.',
  availability: { profiles: ['standard'] },
  kind: 'edit',
  example: {
    files: {
      'n.ipynb':
        '{"cells":[{"cell_type":"code","source":["1"],"metadata":{},"outputs":[],"execution_count":null}],"metadata":{},"nbformat":4,"nbformat_minor":4}\n',
    },
    input: { path: 'n.ipynb', edit_mode: 'replace', cell_number: 1, new_source: '2' },
  },
  refusedInStrictPlan: true,
  userFacingName: () => 'Notebook',
  askVerb: 'Edit the notebook',
  // lathe's own fact: deleting a cell loses its source and outputs.
  destroysExisting: (input) => input.edit_mode === 'delete',
  touchedPaths: (input) => [input.path],
  permissionSubject: (input) => ({ kind: 'edit', paths: [input.path] }),
  validateInput(input) {
    if (!input.path.endsWith('.ipynb'))
      return `${input.path} is not a .ipynb notebook; use edit_file for other files.`;
    if (input.edit_mode !== 'delete' && input.new_source === undefined)
      return `${input.edit_mode} needs new_source.`;
    return undefined;
  },
  async call(input, ctx) {
    const path = absolutePath(ctx, input.path);
    const shown = displayPath(ctx, path);
    let bytes: Buffer;
    try {
      bytes = (await heldTextBytes(ctx.editor, path)) ?? (await readRegularFile(path, shown));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        isError: true,
        text: code === 'ENOENT' ? `${shown} does not exist.` : (error as Error).message,
      };
    }
    const seen = ctx.readFiles.check(path, sha256(bytes));
    if (seen !== 'current') {
      const why =
        seen === 'unread' ? 'has not been read in this session' : 'changed on disk since it was read';
      return { isError: true, text: `${shown} ${why}. Read it with read_file first, then edit.` };
    }
    const text = bytes.toString('utf8');
    let notebook: { cells?: Cell[]; nbformat?: number; nbformat_minor?: number };
    try {
      notebook = JSON.parse(text);
    } catch (error) {
      return { isError: true, text: `${shown} is not valid notebook JSON: ${(error as Error).message}` };
    }
    if (!Array.isArray(notebook.cells))
      return { isError: true, text: `${shown} has no cells list (nbformat 4 expected).` };
    const cells = notebook.cells;
    const at = findCell(cells, input);
    if (typeof at === 'string') return { isError: true, text: at };
    const withIds =
      (notebook.nbformat ?? 4) > 4 || ((notebook.nbformat ?? 4) === 4 && (notebook.nbformat_minor ?? 0) >= 5);
    let done: string;
    if (input.edit_mode === 'delete') {
      cells.splice(at, 1);
      done = `Deleted cell ${at + 1}`;
    } else if (input.edit_mode === 'insert') {
      cells.splice(at + 1, 0, newCell(input.cell_type ?? 'code', input.new_source ?? '', withIds));
      done = `Inserted cell ${at + 2}`;
    } else {
      const cell = cells[at];
      cell.source = sourceLines(input.new_source ?? '');
      if (input.cell_type && input.cell_type !== cell.cell_type) {
        cells[at] = {
          ...newCell(input.cell_type, input.new_source ?? '', false),
          id: cell.id,
          metadata: cell.metadata,
        };
      } else if (cell.cell_type === 'code') {
        cell.outputs = [];
        cell.execution_count = null;
      }
      done = `Replaced cell ${at + 1}`;
    }
    const indent = /^\{\r?\n( +)"/.exec(text)?.[1].length ?? 1;
    const out = `${JSON.stringify(notebook, null, indent)}\n`;
    try {
      await writeTextChange(
        { path, bytes: out, expect: sha256(bytes), shown, checkFolder: editFolderCheck(ctx, path) },
        ctx.editor,
      );
    } catch (error) {
      if (error instanceof WriteRefusedError) return { isError: true, text: error.message };
      throw error;
    }
    ctx.readFiles.saw(path, out);
    return { text: `${done} of ${shown} (${cells.length} cells now).`, data: { cells: cells.length } };
  },
});
