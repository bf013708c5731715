import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { shellQuote } from '../../config/commands/arguments.js';
import { buildTool } from '../../tool/build_tool.js';
import { lazySchema } from '../../tool/lazy_schema.js';
import { findOnPath } from '../../util/find_on_path.js';
import { type BranchFacts, branchFacts } from './branch_facts.js';

const inputSchema = lazySchema(() =>
  z.strictObject({
    title: z.string().trim().min(1).max(256).describe('The pull request title'),
    body: z
      .string()
      .trim()
      .min(1)
      .describe('The description, in Markdown: what changed and why, how it was tested'),
    branch: z
      .string()
      .trim()
      .min(1)
      .describe("The branch of the background work (a worktree's lathe/<name>, or just <name>)"),
  }),
);
type Input = z.infer<typeof inputSchema>;

/** The description as it would be posted: the body, then the commits and the diffstat it covers. */
function description(input: Input, facts: BranchFacts): string {
  const commits = facts.commits.map((c) => `- ${c}`).join('\n');
  return `${input.body}\n\n## Commits\n\n${commits}\n\n## Changes\n\n\`\`\`\n${facts.diffstat}\n\`\`\`\n`;
}

/** The command lines that open the PR: a push, then `gh pr create` when gh is on PATH. */
function commandLines(input: Input, facts: BranchFacts, bodyFile: string, gh: string | undefined): string[] {
  const lines: string[] = [];
  if (facts.remote) lines.push(`git push -u ${shellQuote(facts.remote.name)} ${shellQuote(facts.branch)}`);
  if (gh)
    lines.push(
      `gh pr create --base ${shellQuote(facts.base)} --head ${shellQuote(facts.branch)} --title ${shellQuote(input.title)} --body-file ${shellQuote(bodyFile)}`,
    );
  return lines;
}

export const suggestBackgroundPr = buildTool({
  name: 'suggest_background_pr',
  inputSchema,
  description:
    'After background work on a branch (a worktree of enter_worktree, an isolated subagent or a spawned task), ' +
    'suggest a pull request to the user: checks the branch has commits past its base, writes the description ' +
    '(your body plus the commits and the diffstat) to a file, and gives the commands that push the branch and ' +
    'open the PR (`gh pr create` when gh is installed). Nothing is pushed: the user accepts by running them, or ' +
    'by asking you to.',
  availability: { profiles: ['standard'], feature: 'internal' },
  kind: 'other',
  userFacingName: () => 'Suggest pull request',
  detail: (input) => input.branch,
  // lathe's own fact: it reads the branch and writes only into the session folder; nothing is pushed, so Plan mode lets it run.
  planModeAllowed: true,
  example: {
    input: {
      title: 'Retry failed uploads',
      body: 'Uploads retry three times with backoff.',
      branch: 'lathe/wt-retry',
    },
  },
  async call(input, ctx) {
    const repo = ctx.workspaceMove?.home ?? ctx.workspace;
    let facts: BranchFacts;
    try {
      facts = await branchFacts(repo, input.branch, ctx.documentsRoot);
    } catch (error) {
      return { isError: true, text: `No pull request suggested: ${(error as Error).message}.` };
    }
    if (facts.commits.length === 0) {
      const pending = facts.worktree?.uncommitted
        ? ` Its worktree ${facts.worktree.dir} has ${facts.worktree.uncommitted} uncommitted change(s): commit them (exit_worktree does) first.`
        : '';
      return {
        isError: true,
        text: `No pull request suggested: ${facts.branch} has no commits past its base ${facts.baseSha.slice(0, 12)}.${pending}`,
      };
    }
    // The description goes to the session folder: the user's tree is not touched.
    const folder = join(ctx.sessionDir, 'pull-requests');
    mkdirSync(folder, { recursive: true });
    const bodyFile = join(folder, `${facts.branch.replace(/[^A-Za-z0-9._-]+/g, '-')}.md`);
    const markdown = description(input, facts);
    writeFileSync(bodyFile, markdown);
    const gh = findOnPath(['gh']);
    const commands = commandLines(input, facts, bodyFile, gh);
    const notes: string[] = [];
    if (facts.worktree?.uncommitted)
      notes.push(
        `${facts.worktree.uncommitted} change(s) in ${facts.worktree.dir} are not committed and not in this PR.`,
      );
    if (!facts.remote)
      notes.push('The repository has no remote: add one (git remote add origin URL) to push to.');
    if (!gh)
      notes.push(
        facts.remote?.github
          ? `gh is not installed: after the push, open https://github.com/${facts.remote.github}/compare/${facts.base}...${facts.branch}?expand=1`
          : 'gh is not installed: open the pull request on your forge after the push.',
      );
    const proposal = [
      `# ${input.title}`,
      `${facts.branch} → ${facts.base}, ${facts.commits.length} commit(s)${facts.worktree ? ` (worktree ${facts.worktree.name})` : ''}.`,
      markdown,
      commands.length ? `To open it:\n\n\`\`\`\n${commands.join('\n')}\n\`\`\`` : '',
      ...notes,
    ]
      .filter(Boolean)
      .join('\n\n');
    ctx.interaction?.emit({
      type: 'report',
      title: `Pull request: ${input.title}`,
      markdown: proposal,
      path: bodyFile,
    });
    return {
      text: `Suggested a pull request (nothing was pushed; the user accepts by running the commands or asking you to). Description: ${bodyFile}\n\n${proposal}`,
      data: { ...facts, title: input.title, bodyFile, commands, gh: gh !== undefined },
    };
  },
});
