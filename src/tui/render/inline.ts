import type { Span, Style } from './style.js';

/** Inline Markdown: `code`, **bold**, *italic*, ~~strike~~, [links](url), <autolinks>, \escapes. */

const CODE: Style = { color: 'code' };

const merge = (base: Style | undefined, extra: Style): Style => ({ ...base, ...extra });

function pushText(out: Span[], text: string, style?: Style): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.style === style) last.text += text;
  else out.push(style ? { text, style } : { text });
}

/** Where a delimiter run closes, searching from `from`; -1 when it does not. */
function closing(text: string, delimiter: string, from: number): number {
  let i = text.indexOf(delimiter, from);
  while (i >= 0) {
    // A closing delimiter follows a non-space character.
    if (i > from && !/\s/.test(text[i - 1])) return i;
    i = text.indexOf(delimiter, i + 1);
  }
  return -1;
}

export function parseInline(text: string, base?: Style): Span[] {
  const out: Span[] = [];
  let plain = '';
  const flush = () => {
    pushText(out, plain, base);
    plain = '';
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length && /[\\`*_~[\]()<>#!|-]/.test(text[i + 1])) {
      plain += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '`') {
      const run = /^`+/.exec(text.slice(i))![0];
      const end = text.indexOf(run, i + run.length);
      if (end > 0) {
        flush();
        pushText(out, text.slice(i + run.length, end).replace(/^ (.*) $/, '$1'), merge(base, CODE));
        i = end + run.length;
        continue;
      }
    }
    const strong = text.startsWith('**', i) ? '**' : text.startsWith('__', i) ? '__' : undefined;
    if (strong && !/\s/.test(text[i + 2] ?? ' ')) {
      const end = closing(text, strong, i + 2);
      if (end > 0) {
        flush();
        for (const s of parseInline(text.slice(i + 2, end), merge(base, { bold: true }))) out.push(s);
        i = end + 2;
        continue;
      }
    }
    if (text.startsWith('~~', i)) {
      const end = closing(text, '~~', i + 2);
      if (end > 0) {
        flush();
        for (const s of parseInline(text.slice(i + 2, end), merge(base, { strike: true }))) out.push(s);
        i = end + 2;
        continue;
      }
    }
    const wordStart = i === 0 || /[\s([{"'\u201c]/.test(text[i - 1]);
    if ((ch === '*' || (ch === '_' && wordStart)) && !/\s/.test(text[i + 1] ?? ' ') && text[i + 1] !== ch) {
      const end = closing(text, ch, i + 1);
      const endsWord = end > 0 && (ch === '*' || !/\w/.test(text[end + 1] ?? ' '));
      if (end > 0 && endsWord) {
        flush();
        for (const s of parseInline(text.slice(i + 1, end), merge(base, { italic: true }))) out.push(s);
        i = end + 1;
        continue;
      }
    }
    if (ch === '[') {
      const link = /^\[([^\]]+)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/.exec(text.slice(i));
      if (link) {
        flush();
        for (const s of parseInline(link[1], merge(base, { underline: true }))) out.push(s);
        if (link[2] !== link[1] && !link[2].startsWith('#'))
          pushText(out, ` (${link[2]})`, { color: 'muted' });
        i += link[0].length;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<(https?:\/\/[^>\s]+)>/.exec(text.slice(i));
      if (auto) {
        flush();
        pushText(out, auto[1], merge(base, { underline: true }));
        i += auto[0].length;
        continue;
      }
    }
    plain += ch;
    i++;
  }
  flush();
  return out;
}
