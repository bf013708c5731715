export { discoverRules, type RulePlaces } from './discover.js';
export { describeRuleState, RuleSet } from './rule_set.js';
export type { Rule, RuleDiscovery, RulePlace, RuleState, RuleStatus, SessionRules } from './types.js';
