import { platform, release } from 'node:os';
import { runGit } from '../util/safe_git.js';

/** A few facts about where the agent runs, for the system prompt. */
export async function environmentDetails(cwd: string, now = new Date()): Promise<string> {
  const lines = [
    `Working folder: ${cwd}`,
    `OS: ${platform()} ${release()}`,
    `Date: ${now.toISOString().slice(0, 10)}`,
  ];
  // Submodules' dirtiness is not asked for: it would run git inside each, under their config.
  const git = await runGit(['status', '--porcelain=v1', '--branch', '--ignore-submodules=dirty'], { cwd });
  if (git.status === 0) {
    const [branchLine = '', ...changes] = git.stdout.split('\n').filter(Boolean);
    const branch = branchLine.replace(/^## /, '').replace(/\.\.\..*/, '');
    const summary = changes.length === 0 ? 'clean' : `${changes.length} changed files`;
    lines.push(`Git: branch ${branch}, ${summary}`);
    if (changes.length > 0) lines.push(...changes.slice(0, 20).map((c) => `  ${c}`));
    if (changes.length > 20) lines.push(`  … ${changes.length - 20} more`);
  }
  return lines.join('\n');
}
