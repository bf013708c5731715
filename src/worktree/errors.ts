/**
 * Why a worktree could not be made, finished or pruned: one line to show as it is (to the model
 * or the user). Whatever the failed step made was taken away first; nothing falls back to the
 * main checkout.
 */
export class WorktreeError extends Error {
  override name = 'WorktreeError';
}
