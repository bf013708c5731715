export {
  type BlockReport,
  formatReport,
  type LineRange,
  type ReplaceResult,
  replaceInFile,
} from './apply.js';
export { findSegment, segmentStarts } from './find.js';
export { type FileIndex, lineMatches, normaliseSearchLine } from './lines.js';
export {
  anchorsOf,
  type BlockMatch,
  type BlockRefusal,
  matchBlock,
  type Segment,
  segmentSearch,
} from './match.js';
export { findNearMiss, type NearMiss, type NearMissSearch } from './nearmiss.js';
export { isSkipLine, MARKER_LENGTH, type ParsedBlock, type ParseResult, parseDiff } from './parse.js';
export { indexFile, locateAnchors, scanFile } from './scan.js';
