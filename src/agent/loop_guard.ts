/** The same call this many times in a row is stopped (the third identical call in a row is not run). */
const LIMIT = 3;
/**
 * The same call this many times in a row ends the run: the model went on after its refusals.
 * With no limit on model requests, this is what ends a run that goes round in circles.
 */
const END_AT = 6;

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

/** Watches the calls a model makes: stops the third identical one in a row, and ends the run at the sixth. */
export class LoopGuard {
  private last = '';
  private lastName = '';
  private repeats = 0;

  /** Returns a refusal for the model, or undefined when the call may run. */
  check(name: string, input: unknown): string | undefined {
    const signature = `${name}:${stableJson(input)}`;
    this.repeats = signature === this.last ? this.repeats + 1 : 1;
    this.last = signature;
    this.lastName = name;
    if (this.repeats < LIMIT) return undefined;
    return (
      `Not run: the same ${name} call ${this.repeats} times in a row, and its result will not change. ` +
      'Do something different: change the input, try another tool, or explain what is blocking you.'
    );
  }

  /** Why the run ends, once the model has made the same call END_AT times in a row. */
  ended(): string | undefined {
    if (this.repeats < END_AT) return undefined;
    return `Stopped: the model made the same ${this.lastName} call ${this.repeats} times in a row, and its refusals did not change it.`;
  }
}
