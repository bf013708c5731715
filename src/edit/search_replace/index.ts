export {
  type BlockReport,
  formatReport,
  type LineRange,
  type ReplaceResult,
  replaceInFile,
} from './apply.js';
export { findNearMiss, type NearMiss, type NearMissSearch } from './closest_run.js';
export { findSegment, segmentStarts } from './find.js';
export { type FileIndex, lineMatches, normaliseSearchLine } from './lines.js';
export { anchorsOf, type BlockMatch, type BlockRefusal, matchBlock } from './match.js';
export { isSkipLine, MARKER_LENGTH, type ParsedBlock, type ParseResult, parseDiff } from './parse.js';
export { indexFile, locateAnchors, scanFile } from './scan.js';
export { type Segment, segmentSearch } from './segments.js';
