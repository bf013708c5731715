import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readFileTail } from '../../util/file_tail.js';

/** Prompts kept for ↑/↓, newest last. */
const MAX_ENTRIES = 500;
/** Only the end of the history file is read at start-up. */
const TAIL_BYTES = 128 * 1024;

/**
 * The prompts sent before, for ↑ and ↓. Kept in a JSONL file under documents-root (one prompt
 * per line) so they outlive the session; a missing or damaged file is an empty history.
 */
export class PromptHistory {
  private readonly entries: string[];
  /** Position while browsing: entries.length means "the draft being typed". */
  private index: number;
  private draft = '';

  constructor(private readonly file?: string) {
    this.entries = file ? readTail(file) : [];
    this.index = this.entries.length;
  }

  add(prompt: string): void {
    const text = prompt.trim();
    if (!text) return;
    if (this.entries[this.entries.length - 1] !== text) {
      this.entries.push(text);
      if (this.entries.length > MAX_ENTRIES) this.entries.shift();
      if (this.file) {
        try {
          mkdirSync(dirname(this.file), { recursive: true });
          appendFileSync(this.file, `${JSON.stringify(text)}\n`, { mode: 0o600 });
        } catch {
          // History is a convenience; a read-only home must not break the prompt.
        }
      }
    }
    this.index = this.entries.length;
  }

  /** The previous prompt, remembering the draft; undefined at the oldest. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** The next prompt, or the draft again after the newest; undefined when not browsing. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  reset(): void {
    this.index = this.entries.length;
  }
}

function readTail(file: string): string[] {
  const { text, cut } = readFileTail(file, TAIL_BYTES);
  const lines = text.split('\n');
  if (cut) lines.shift(); // probably cut in the middle
  const out: string[] = [];
  for (const line of lines) {
    try {
      const value = JSON.parse(line);
      if (typeof value === 'string') out.push(value);
    } catch {
      // a damaged line is skipped
    }
  }
  return out.slice(-MAX_ENTRIES);
}
