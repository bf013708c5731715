import { extname } from 'node:path';
import { z } from 'zod';
import { readRegularFile, specialFileProblem } from '../../edit/regular_file.js';
import { buildTool, DEFAULT_RESULT_CHARS } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import type { ToolContext, ToolOutput } from '../../tool/types.js';
import { heldTextBytes } from '../shared/editor_text.js';
import { absolutePath, displayPath, pathKind, pathProblem } from '../shared/paths.js';
import { readTextSlice } from './read_text.js';
import { isImagePath } from './render/image.js';

/** Room kept for the paging note within the result budget. */
const NOTE_ROOM = 500;
const MAX_BINARY_READ = 50 * 1024 * 1024;

const inputSchema = lazySchema(() =>
  z.strictObject({
    path: z.string().min(1).describe('File to read (relative to the working folder, or absolute)'),
    offset: z.number().int().min(1).optional().describe('First line to show, 1-based'),
    limit: z.number().int().min(1).optional().describe('How many lines to show (default 2000)'),
    pages: z.string().optional().describe('PDF pages, e.g. "3", "1-5", "10-" (at most 20 per call)'),
  }),
);
type Input = z.infer<typeof inputSchema>;

async function readImage(path: string, shown: string, size: number): Promise<ToolOutput> {
  if (size > MAX_BINARY_READ)
    return { isError: true, text: `${shown} is too large to read as an image (${size} bytes).` };
  const { renderImage } = await import('./render/image.js');
  const image = await renderImage(await readRegularFile(path, shown), path);
  if (!image.ok) return { isError: true, text: `${shown}: ${image.error}` };
  return {
    text: `${shown}: ${image.note}`,
    images: [{ mediaType: image.mediaType, data: image.data }],
    data: { width: image.width, height: image.height },
  };
}

async function readPdf(
  path: string,
  shown: string,
  size: number,
  pages: string | undefined,
): Promise<ToolOutput> {
  if (size > MAX_BINARY_READ)
    return { isError: true, text: `${shown} is too large to read as a PDF (${size} bytes).` };
  const { renderPdf } = await import('./render/pdf.js');
  const pdf = await renderPdf(await readRegularFile(path, shown), pages);
  if (!pdf.ok) return { isError: true, text: `${shown}: ${pdf.error}` };
  return { text: pdf.text, data: { pageCount: pdf.pageCount, shown: pdf.shown } };
}

async function readNotebook(path: string, shown: string, ctx: ToolContext): Promise<ToolOutput> {
  const bytes = (await heldTextBytes(ctx.editor, path)) ?? (await readRegularFile(path, shown));
  const { renderNotebook, notebookImages } = await import('./render/notebook.js');
  const text = bytes.toString('utf8');
  const notebook = renderNotebook(text);
  if (!notebook.ok) return { isError: true, text: `${shown}: ${notebook.error}` };
  ctx.readFiles.saw(path, bytes);
  const images = notebookImages(text);
  return {
    text: notebook.text,
    data: { cellCount: notebook.cellCount },
    ...(images.length ? { images } : {}),
  };
}

export const readFileTool = buildTool({
  name: 'read_file',
  inputSchema,
  description:
    'Read a file. Text comes with 1-based line numbers ("12<TAB>text"; the number and tab are not part of the ' +
    'file); use offset and limit for long files. Images come back as images, PDFs as text by pages, Jupyter ' +
    'notebooks as cells with outputs. Read several files at once by calling this tool several times in one message.',
  liteDescription: 'Read a file (numbered lines; offset/limit for long files).',
  availability: { profiles: ['standard', 'lite', 'simple'] },
  kind: 'read',
  example: { files: { 'notes.md': 'hello\n' }, input: { path: 'notes.md' } },
  userFacingName: () => 'Read',
  resultView: 'lineCount',
  detail: (input, show) => {
    const range =
      input.offset || input.limit ? `:${input.offset ?? 1}${input.limit ? `+${input.limit}` : ''}` : '';
    return `${show(input.path)}${range}`;
  },
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  permissionSubject: (input: Input) => ({ kind: 'read', paths: [input.path] }),
  async validateInput(input, ctx) {
    const path = absolutePath(ctx, input.path);
    return (
      (await specialFileProblem(path, input.path)) ??
      pathProblem(input.path, (await pathKind(path)).kind, 'file')
    );
  },
  async call(input, ctx) {
    const output = await readAnyFile(input, ctx);
    if (!output.isError) ctx.readFiles.sawPart(absolutePath(ctx, input.path));
    return output;
  },
});

async function readAnyFile(input: Input, ctx: ToolContext): Promise<ToolOutput> {
  const path = absolutePath(ctx, input.path);
  const shown = displayPath(ctx, path);
  const { size } = await pathKind(path);
  const extension = extname(path).toLowerCase();
  if (isImagePath(path)) return readImage(path, shown, size);
  if (extension === '.pdf') return readPdf(path, shown, size, input.pages);
  if (extension === '.ipynb') return readNotebook(path, shown, ctx);
  const read = await readTextSlice(path, shown, size, {
    offset: input.offset,
    limit: input.limit,
    budget: DEFAULT_RESULT_CHARS - NOTE_ROOM,
    editor: ctx.editor,
  });
  if (!read.ok) return { isError: true, text: read.error };
  if (read.slice.hash) ctx.readFiles.sawHash(path, read.slice.hash);
  return { text: read.slice.text, data: read.slice.data };
}
