import { type CallFacts, NO_FACTS } from './facts.js';
import type { Tool } from './types.js';

/**
 * A fact that holds for every input of a tool: true or false; 'dynamic' when the tool declares
 * that it depends on the input; 'unknown' when asking without an input failed.
 */
export type StaticFact = boolean | 'dynamic' | 'unknown';

/** The contract's three flags of a tool. */
export interface StaticFacts {
  readOnly: StaticFact;
  concurrencySafe: StaticFact;
  destructive: StaticFact;
}

/** lathe's own facts of a tool, apart from the contract's flags. */
export interface LatheFacts {
  planModeAllowed: StaticFact;
  runsInParallel: StaticFact;
  destroysExisting: StaticFact;
  refusedInStrictPlan: boolean;
}

type Fact = (input: never, facts: CallFacts) => boolean;

const factOf = (tool: Tool, fact: keyof Tool['dynamic'] & keyof Tool): StaticFact =>
  tool.dynamic[fact] ? 'dynamic' : probe(tool[fact] as Fact);

/** The flags a listing shows of a tool (`lathe tools`, `/tools`, MCP annotations), asked with no input. */
export function staticFacts(tool: Tool): StaticFacts {
  return {
    readOnly: tool.dynamic.readOnly ? 'dynamic' : probe(tool.isReadOnly),
    concurrencySafe: tool.dynamic.concurrencySafe ? 'dynamic' : probe(tool.isConcurrencySafe),
    destructive: tool.dynamic.destructive ? 'dynamic' : probe(tool.isDestructive),
  };
}

/** lathe's own facts of a tool as a listing shows them, asked with no input. */
export function latheFacts(tool: Tool): LatheFacts {
  return {
    planModeAllowed: factOf(tool, 'planModeAllowed'),
    runsInParallel: factOf(tool, 'runsInParallel'),
    destroysExisting: factOf(tool, 'destroysExisting'),
    refusedInStrictPlan: tool.refusedInStrictPlan,
  };
}

function probe(fact: Fact): boolean | 'unknown' {
  try {
    return fact({} as never, NO_FACTS);
  } catch {
    return 'unknown';
  }
}
