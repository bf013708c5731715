import { type CallFacts, NO_FACTS } from './facts.js';
import type { Tool } from './types.js';

/**
 * A fact that holds for every input of a tool: true or false; 'dynamic' when the tool declares
 * that it depends on the input; 'unknown' when asking without an input failed.
 */
export type StaticFact = boolean | 'dynamic' | 'unknown';

export interface StaticFacts {
  readOnly: StaticFact;
  concurrencySafe: StaticFact;
  destructive: StaticFact;
}

/** The facts a listing shows of a tool (`lathe tools`, `/tools`, MCP annotations), asked with no input. */
export function staticFacts(tool: Tool): StaticFacts {
  return {
    readOnly: tool.dynamic.readOnly ? 'dynamic' : probe(tool.isReadOnly),
    concurrencySafe: tool.dynamic.concurrencySafe ? 'dynamic' : probe(tool.isConcurrencySafe),
    destructive: tool.dynamic.destructive ? 'dynamic' : probe(tool.isDestructive),
  };
}

function probe(fact: (input: never, facts: CallFacts) => boolean): boolean | 'unknown' {
  try {
    return fact({} as never, NO_FACTS);
  } catch {
    return 'unknown';
  }
}
