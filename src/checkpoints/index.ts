export { folderBytes } from './disk_usage.js';
export type {
  Checkpoint,
  CheckpointKind,
  CheckpointMeta,
  CheckpointScope,
  ConversationMark,
  FileRecord,
} from './records.js';
export type { TreeChange } from './restore.js';
export { checkpointsFolder, ShadowGitError, shadowGitDir } from './shadow_repo.js';
export {
  CheckpointError,
  CheckpointStore,
  type CheckpointStoreOptions,
  type RestoreResult,
} from './store.js';
export { MAX_FILE_BYTES, type SkippedFile, WalkError } from './walk.js';
