import { enterWorktree } from './enter_worktree.js';
import { exitWorktree } from './exit_worktree.js';

export const worktreeTools = [enterWorktree, exitWorktree];
