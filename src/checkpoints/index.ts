export type { Checkpoint, CheckpointKind, CheckpointMeta, ConversationMark } from './records.js';
export type { TreeChange } from './restore.js';
export { checkpointsFolder, ShadowGitError, shadowGitDir } from './shadow_repo.js';
export {
  CheckpointError,
  CheckpointStore,
  type CheckpointStoreOptions,
  folderBytes,
  type RestoreResult,
} from './store.js';
export { MAX_FILE_BYTES, type SkippedFile, WalkError } from './walk.js';
