import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SubagentReport } from '../../tool/context/agents.js';
import type { AgentEvent } from '../events.js';

const INPUT_CHARS = 160;

/**
 * A background child's output file, which task_output reads: what it says and the calls it
 * makes, a line or paragraph each as they happen, then how it ended. Written synchronously, so
 * a reader sees each line whole; a failing disk loses lines, never the child.
 */
export class ChildOutput {
  private broken = false;

  constructor(readonly path: string) {
    try {
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, '');
    } catch {
      this.broken = true;
    }
  }

  /** Writes what a reader of the child's progress wants of one of its events. */
  event(event: AgentEvent): void {
    if (event.type === 'assistant_text' && event.text.trim()) this.write(`${event.text.trim()}\n`);
    else if (event.type === 'tool_call') {
      const input = JSON.stringify(event.input) ?? '';
      const shown = input.length > INPUT_CHARS ? `${input.slice(0, INPUT_CHARS - 1)}…` : input;
      this.write(`→ ${event.name} ${shown}\n`);
    } else if (event.type === 'tool_result' && event.result.isError)
      this.write(`  ✗ ${event.result.text.split('\n')[0]}\n`);
  }

  /** The end: the status and the child's final text. */
  end(report: SubagentReport): void {
    this.write(`\n[${report.status}]\n${report.text}\n`);
  }

  private write(text: string): void {
    if (this.broken) return;
    try {
      appendFileSync(this.path, text);
    } catch {
      this.broken = true;
    }
  }
}
