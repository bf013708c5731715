export { parsePatch } from './parse.js';
export { patchPaths, planPatch } from './plan.js';
export type { FileState, ParseResult, PatchChunk, PatchOp, PlannedChange, PlanResult } from './types.js';
