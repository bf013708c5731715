export { allowedToolRules } from './allowed_tools.js';
export { SkillCatalog } from './catalog.js';
export { skillCommands } from './commands.js';
export { discoverSkills, shownPath, skillPlaces } from './discover.js';
export { skillDocument } from './document.js';
export { readSkillInstructions, type SkillInstructions } from './instructions.js';
export { skillLine, skillListing } from './listing.js';
export type { Skill, SkillDiscovery, SkillDiscoveryOptions, SkillPlace } from './types.js';
