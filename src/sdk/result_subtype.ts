import type { AgentOutcomeKind } from '../agent/events.js';
import type { ResultSubtype } from './messages.js';

/**
 * The result's `subtype` in Claude Code's words, so that scripts written for its headless runs
 * read lathe's the same way; the result's `outcome` keeps lathe's own, finer reason.
 */
export function resultSubtype(kind: AgentOutcomeKind): ResultSubtype {
  switch (kind) {
    case 'completed':
    case 'answered':
    case 'final_text':
      return 'success';
    case 'max_turns':
      return 'error_max_turns';
    case 'max_cost':
      return 'error_max_budget_usd';
    default:
      return 'error_during_execution';
  }
}
