/** The same call this many times in a row is stopped (the third identical call in a row is not run). */
const LIMIT = 3;

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** Watches the calls a model makes and stops the third identical one in a row. */
export class LoopGuard {
  private last = '';
  private repeats = 0;

  /** Returns a refusal for the model, or undefined when the call may run. */
  check(name: string, input: unknown): string | undefined {
    const signature = `${name}:${stableJson(input)}`;
    this.repeats = signature === this.last ? this.repeats + 1 : 1;
    this.last = signature;
    if (this.repeats < LIMIT) return undefined;
    return (
      `Not run: the same ${name} call ${this.repeats} times in a row, and its result will not change. ` +
      'Do something different: change the input, try another tool, or explain what is blocking you.'
    );
  }
}
