/**
 * Which line endings a text uses, one rule for every editing engine. A file's ending is the
 * one most of its line breaks use (ties go to LF, then CRLF). Where that is a lone CR (classic
 * Mac files), every CR, LF and CRLF ends a line; elsewhere only LF and CRLF do, and a lone CR
 * is part of its line, as git and read_file see it (a progress bar's `\r` in a log, say).
 */

export type Eol = '\n' | '\r\n' | '\r';

const CR = 13;
const LF = 10;

/** How the CRs of a text stand: before an LF (a CRLF) or alone. */
export interface CrCount {
  crlf: number;
  lone: number;
}

/** One pass over the CRs only (none to find in an LF file, so about free there). */
export function countCrs(text: string): CrCount {
  let crlf = 0;
  let lone = 0;
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) === LF) crlf++;
    else lone++;
  }
  return { crlf, lone };
}

/**
 * Whether lone CRs are most of the line breaks (a CR file). The LFs are counted only when lone
 * CRs outnumber CRLFs, which no LF or CRLF file has: there the pass that splits the lines
 * counts them (see `eolOf`).
 */
export function isCrFile(text: string, crs: CrCount): boolean {
  return crs.lone > crs.crlf && loneCrsLead(crs, countLfs(text));
}

/** Whether lone CRs outnumber both CRLFs and lone LFs. */
function loneCrsLead(crs: CrCount, lfs: number): boolean {
  return crs.lone > crs.crlf && crs.lone > lfs - crs.crlf;
}

function countLfs(text: string): number {
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lf++;
  return lf;
}

/** The ending of a text from its CRs, the number of its LFs and whether it is a CR file. */
export function eolOf(crs: CrCount, lfs: number, crFile: boolean): Eol {
  if (crFile) return '\r';
  return crs.crlf > lfs - crs.crlf ? '\r\n' : '\n';
}

/** The ending most line breaks of `text` use; "\n" when it has none. */
export function detectEol(text: string): Eol {
  const crs = countCrs(text);
  if (crs.crlf === 0 && crs.lone === 0) return '\n';
  const lfs = countLfs(text);
  return eolOf(crs, lfs, loneCrsLead(crs, lfs));
}

/** Whether a lone CR ends a line in a text whose ending is `eol`. */
export function crEndsLines(eol: Eol): boolean {
  return eol === '\r';
}

/**
 * Finds the lines of a text from left to right in one pass: the position of the next LF and of
 * the next CR are each kept until passed, so a CR file with no LF is not searched to its end for
 * every line. `crBreaks`: a lone CR ends a line too.
 */
export class LineWalker {
  private lf = -2;
  private cr = -2;

  constructor(
    private readonly text: string,
    private readonly crBreaks: boolean,
  ) {}

  /** Offset just past the break ending the line that starts at `from` (text length when none); `from` only grows. */
  nextLineStart(from: number): number {
    const text = this.text;
    if (this.lf !== -1 && this.lf < from) this.lf = text.indexOf('\n', from);
    const lf = this.lf;
    if (!this.crBreaks) return lf === -1 ? text.length : lf + 1;
    if (this.cr !== -1 && this.cr < from) this.cr = text.indexOf('\r', from);
    const cr = this.cr;
    if (cr === -1 || (lf !== -1 && lf < cr)) return lf === -1 ? text.length : lf + 1;
    return lf === cr + 1 ? cr + 2 : cr + 1;
  }
}

/**
 * Offset where the content of the line from `start` to `next` (the next line's start) ends:
 * before its "\r\n" or "\n", or (with `crBreaks`) its lone "\r".
 */
export function lineContentEnd(text: string, start: number, next: number, crBreaks: boolean): number {
  if (next === start) return next;
  const last = text.charCodeAt(next - 1);
  if (last === LF) return next - 1 > start && text.charCodeAt(next - 2) === CR ? next - 2 : next - 1;
  return crBreaks && last === CR ? next - 1 : next;
}

/** The line break `text` ends with ("" when none). */
export function trailingBreak(text: string, crBreaks: boolean): string {
  if (text.endsWith('\r\n')) return '\r\n';
  if (text.endsWith('\n')) return '\n';
  return crBreaks && text.endsWith('\r') ? '\r' : '';
}

/** The first line break that lies wholly between `from` and `to`, or null when there is none. */
export function firstBreakWithin(text: string, from: number, to: number, crBreaks: boolean): Eol | null {
  // Only the replaced text is looked at: a search past it would cost a pass per match.
  for (let at = from; at < to; at++) {
    const c = text.charCodeAt(at);
    if (c === LF) return '\n';
    if (c !== CR) continue;
    if (text.charCodeAt(at + 1) === LF) return at + 1 < to ? '\r\n' : null;
    if (crBreaks) return '\r';
  }
  return null;
}

/** How many lines `text` has; a final line break ends the last line rather than starting one. */
export function countLines(text: string, crBreaks: boolean): number {
  const walker = new LineWalker(text, crBreaks);
  let lines = 0;
  for (let at = 0; at < text.length; at = walker.nextLineStart(at)) lines++;
  return lines;
}

/** `text` with each LF or CRLF written as `eol` (left as it is for an LF file). */
export function withEnding(text: string, eol: Eol): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}
