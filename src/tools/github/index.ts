import { subscribePr } from './subscribe_pr.js';
import { suggestBackgroundPr } from './suggest_background_pr.js';

/** subscribe_pr (feature `github_webhooks`) and suggest_background_pr (feature `internal`). */
export const githubTools = [subscribePr, suggestBackgroundPr];
