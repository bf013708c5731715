/** The part of a long text one call returns, and where the next part starts. */
export interface TextPage {
  text: string;
  offset: number;
  end: number;
  total: number;
  /** Where the next call should start; undefined at the end. */
  nextOffset?: number;
}

/**
 * Characters `offset` to `offset + maxChars`, the cut moved back to a line or word break when one
 * is near, so that a page never ends mid-word without need.
 */
export function pageOf(text: string, offset: number, maxChars: number): TextPage {
  const total = text.length;
  const start = Math.min(Math.max(0, offset), total);
  let end = Math.min(total, start + maxChars);
  if (end < total) {
    const window = text.slice(start, end);
    const lineBreak = window.lastIndexOf('\n');
    const space = window.lastIndexOf(' ');
    const cut = lineBreak > maxChars * 0.8 ? lineBreak + 1 : space > maxChars * 0.9 ? space + 1 : -1;
    if (cut > 0) end = start + cut;
  }
  return {
    text: text.slice(start, end),
    offset: start,
    end,
    total,
    nextOffset: end < total ? end : undefined,
  };
}
