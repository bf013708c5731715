/** Pages returned by one call; keeps a single read of a long PDF from flooding the context. */
export const MAX_PDF_PAGES_PER_CALL = 20;

export type PdfRender =
  | { ok: true; text: string; pageCount: number; shown: [number, number] }
  | { ok: false; error: string };

export type PageRange = { ok: true; first: number; last: number } | { ok: false; error: string };

const PAGE_SPEC_HELP = 'use a page number ("3"), a range ("1-5") or an open range ("10-")';

/**
 * Reads "3", "1-5", "10-" or "-5" (1-based, inclusive). The end is clamped to the document and to
 * MAX_PDF_PAGES_PER_CALL pages, so the caller can report what was left out; a start past the end
 * of the document is an error.
 */
export function parsePageRange(spec: string, pageCount: number): PageRange {
  const match = /^\s*(\d*)\s*(-?)\s*(\d*)\s*$/.exec(spec);
  if (!match || (match[1] === '' && match[3] === '') || (match[2] === '' && match[3] !== '')) {
    return { ok: false, error: `invalid pages "${spec}": ${PAGE_SPEC_HELP}` };
  }
  const [, startText, dash, endText] = match;
  const first = startText === '' ? 1 : Number(startText);
  const requestedLast = dash === '' ? first : endText === '' ? Number.POSITIVE_INFINITY : Number(endText);

  if (first < 1 || requestedLast < 1) {
    return { ok: false, error: `invalid pages "${spec}": page numbers start at 1` };
  }
  if (requestedLast < first) {
    return { ok: false, error: `invalid pages "${spec}": the range ends before it starts` };
  }
  if (first > pageCount) {
    const pages = pageCount === 1 ? '1 page' : `${pageCount} pages`;
    return { ok: false, error: `pages "${spec}" are out of range: the document has ${pages}` };
  }
  const last = Math.min(requestedLast, pageCount, first + MAX_PDF_PAGES_PER_CALL - 1);
  return { ok: true, first, last };
}

/** Extracts the text of up to MAX_PDF_PAGES_PER_CALL pages, each under a `--- page N ---` heading. */
export async function renderPdf(bytes: Uint8Array, pages?: string): Promise<PdfRender> {
  // Loaded here rather than at the top: pdf.js is large and most sessions never open a PDF.
  const { getDocumentProxy } = await import('unpdf');

  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js may detach the buffer it is given, so hand it a copy; verbosity 0 keeps its
    // warnings about sloppy PDFs off the terminal.
    document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (error) {
    return { ok: false, error: `not a readable PDF: ${describePdfError(error)}` };
  }

  try {
    const pageCount = document.numPages;
    const range = parsePageRange(pages ?? '1-', pageCount);
    if (!range.ok) return range;

    const sections: string[] = [];
    for (let pageNumber = range.first; pageNumber <= range.last; pageNumber++) {
      const page = await document.getPage(pageNumber);
      const text = pageText(await page.getTextContent());
      page.cleanup();
      sections.push(
        `--- page ${pageNumber} ---\n${text || '(no text on this page; it may be a scanned image)'}`,
      );
    }

    const remainder = moreNote(range.first, range.last, pageCount);
    if (remainder) sections.push(remainder);
    return { ok: true, text: sections.join('\n\n'), pageCount, shown: [range.first, range.last] };
  } catch (error) {
    return { ok: false, error: `not a readable PDF: ${describePdfError(error)}` };
  } finally {
    await document.destroy().catch(() => {});
  }
}

/** Joins text items the way unpdf's `extractText` does, for just the pages asked for. */
function pageText(content: { items: readonly object[] }): string {
  let text = '';
  for (const item of content.items) {
    if ('str' in item && typeof item.str === 'string') {
      text += item.str + ('hasEOL' in item && item.hasEOL ? '\n' : '');
    }
  }
  return text.replace(/[ \t]+$/gm, '').trim();
}

/** Tells the model how many pages exist and exactly what to ask for next. */
function moreNote(first: number, last: number, pageCount: number): string | undefined {
  if (first === 1 && last === pageCount) return undefined;
  const shown = first === last ? `page ${first}` : `pages ${first}-${last}`;
  let note = `[The PDF has ${pageCount} pages; showing ${shown}.`;
  if (last < pageCount) {
    const nextLast = Math.min(last + MAX_PDF_PAGES_PER_CALL, pageCount);
    const next = nextLast === last + 1 ? `${nextLast}` : `${last + 1}-${nextLast}`;
    note += ` To read more, call read_file again with pages: "${next}".`;
  }
  return `${note} At most ${MAX_PDF_PAGES_PER_CALL} pages per call.]`;
}

function describePdfError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'PasswordException') return 'it is password-protected';
    return error.message;
  }
  return String(error);
}
