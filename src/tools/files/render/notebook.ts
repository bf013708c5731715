/** Characters kept from any one output; long logs and tracebacks are cut in the middle. */
export const MAX_OUTPUT_CHARS = 2_000;
/** How many output images `notebookImages` returns by default. */
export const DEFAULT_NOTEBOOK_IMAGES = 3;

export type NotebookRender = { ok: true; text: string; cellCount: number } | { ok: false; error: string };

type Json = Record<string, unknown>;

/** Media types the model can be shown as images; SVG is text and is left to the text/plain fallback. */
const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** nbformat 3 stored output data under short keys instead of media types. */
const V3_OUTPUT_KEYS: Readonly<Record<string, string>> = {
  text: 'text/plain',
  png: 'image/png',
  jpeg: 'image/jpeg',
  html: 'text/html',
  svg: 'image/svg+xml',
  latex: 'text/latex',
  json: 'application/json',
  javascript: 'application/javascript',
};

/** Renders an .ipynb as plain text: each cell's header, source and outputs. Cells are numbered from 1. */
export function renderNotebook(text: string): NotebookRender {
  const parsed = parseNotebook(text);
  if (!parsed.ok) return parsed;
  const rendered = parsed.cells.map((cell, index) => renderCell(cell, index + 1));
  return { ok: true, text: rendered.join('\n\n'), cellCount: parsed.cells.length };
}

/** The first few image outputs, base64, for callers that can show images to the model. */
export function notebookImages(
  text: string,
  limit = DEFAULT_NOTEBOOK_IMAGES,
): Array<{ mediaType: string; data: string }> {
  const parsed = parseNotebook(text);
  if (!parsed.ok) return [];
  const images: Array<{ mediaType: string; data: string }> = [];
  for (const cell of parsed.cells) {
    for (const output of outputsOf(cell)) {
      const data = outputData(output);
      for (const mediaType of IMAGE_MEDIA_TYPES) {
        if (images.length >= limit) return images;
        const base64 = joinText(data[mediaType]).replace(/\s+/g, '');
        if (base64) images.push({ mediaType, data: base64 });
      }
    }
  }
  return images;
}

function parseNotebook(text: string): { ok: true; cells: Json[] } | { ok: false; error: string } {
  let notebook: unknown;
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `not a valid notebook: invalid JSON (${reason})` };
  }
  if (!isObject(notebook))
    return { ok: false, error: 'not a valid notebook: the top level is not an object' };
  if (Array.isArray(notebook.cells)) return { ok: true, cells: notebook.cells.filter(isObject) };
  // nbformat 3 kept cells inside worksheets; in practice there is only ever one.
  if (Array.isArray(notebook.worksheets)) {
    const cells = notebook.worksheets
      .filter(isObject)
      .flatMap((sheet) => (Array.isArray(sheet.cells) ? sheet.cells : []));
    return { ok: true, cells: cells.filter(isObject) };
  }
  return { ok: false, error: 'not a valid notebook: no "cells" list found' };
}

function renderCell(cell: Json, number: number): string {
  const type = typeof cell.cell_type === 'string' ? cell.cell_type : 'unknown';
  // nbformat 3 code cells keep their source in "input" and their count in "prompt_number".
  let source = joinText(cell.source ?? cell.input);
  let shownType = type;
  if (type === 'heading') {
    // nbformat 3 heading cells became markdown headings in version 4.
    const level = typeof cell.level === 'number' ? cell.level : 1;
    source = `${'#'.repeat(level)} ${source}`;
    shownType = 'markdown';
  }

  const details: string[] = [];
  if (typeof cell.id === 'string') details.push(`id: ${cell.id}`);
  const count = cell.execution_count ?? cell.prompt_number;
  if (type === 'code' && typeof count === 'number') details.push(`execution_count: ${count}`);

  const lines = [`[cell ${number}] ${shownType}${details.length ? ` (${details.join(', ')})` : ''}`];
  if (source) lines.push(source.replace(/\n$/, ''));
  for (const output of outputsOf(cell)) lines.push(renderOutput(output));
  return lines.join('\n');
}

function renderOutput(output: Json): string {
  const type = output.output_type;
  if (type === 'stream') {
    const name = String(output.name ?? output.stream ?? 'stdout');
    return `[${name}]\n${trimOutput(cleanTerminalText(joinText(output.text)))}`;
  }
  if (type === 'error' || type === 'pyerr') {
    const heading = `[error] ${String(output.ename ?? 'Error')}: ${String(output.evalue ?? '')}`;
    const traceback = Array.isArray(output.traceback) ? output.traceback.map(String).join('\n') : '';
    return traceback ? `${heading}\n${trimOutput(cleanTerminalText(traceback))}` : heading;
  }
  const label = type === 'execute_result' || type === 'pyout' ? 'result' : 'display';
  return renderRichOutput(label, outputData(output));
}

/** execute_result / display_data: text/plain in full (trimmed), images and other media as one-line notes. */
function renderRichOutput(label: string, data: Json): string {
  const lines: string[] = [];
  const plain = joinText(data['text/plain']);
  if (plain) lines.push(`[${label}]`, trimOutput(cleanTerminalText(plain)));
  for (const mediaType of Object.keys(data)) {
    if (mediaType === 'text/plain') continue;
    const isImage = mediaType.startsWith('image/');
    // Rich text forms (HTML tables, LaTeX) usually duplicate text/plain, so only mention them without it.
    if (!isImage && plain) continue;
    lines.push(
      `[${mediaType} output, ${formatSize(sizeOf(data[mediaType], isImage && mediaType !== 'image/svg+xml'))}]`,
    );
  }
  return lines.length ? lines.join('\n') : `[${label}: empty]`;
}

/** The media-type bundle of an output, whether nbformat 4 ("data") or 3 (short keys on the output). */
function outputData(output: Json): Json {
  if (isObject(output.data)) return output.data;
  const data: Json = {};
  for (const [key, mediaType] of Object.entries(V3_OUTPUT_KEYS)) {
    if (key in output) data[mediaType] = output[key];
  }
  return data;
}

function outputsOf(cell: Json): Json[] {
  return Array.isArray(cell.outputs) ? cell.outputs.filter(isObject) : [];
}

/** Keeps the head and the tail, since tracebacks and logs put what matters at the end. */
function trimOutput(text: string): string {
  const trimmed = text.replace(/\n$/, '');
  if (trimmed.length <= MAX_OUTPUT_CHARS) return trimmed;
  const half = MAX_OUTPUT_CHARS / 2;
  const cut = trimmed.length - MAX_OUTPUT_CHARS;
  return `${trimmed.slice(0, half)}\n[… ${cut.toLocaleString('en-US')} characters cut …]\n${trimmed.slice(-half)}`;
}

/** Strips ANSI colour/cursor codes and keeps only what a terminal would show after carriage returns. */
function cleanTerminalText(text: string): string {
  const withoutAnsi = text
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[@-_]/g, '');
  return withoutAnsi
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => line.slice(line.lastIndexOf('\r') + 1))
    .join('\n');
}

/** Decoded size of base64 data, or the character count of text data. */
function sizeOf(value: unknown, base64: boolean): number {
  const text = joinText(value);
  if (!base64) return text.length;
  const compact = text.replace(/\s+/g, '');
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((compact.length * 3) / 4) - padding);
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Notebook text fields are a string or a list of strings (usually one per line). */
function joinText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.filter((part) => typeof part === 'string').join('');
  if (value !== undefined && value !== null && typeof value === 'object') return JSON.stringify(value);
  return '';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
